/** The upload id inside a stored file's url ({base}api/files/{id}/{name}). */
export const FILE_URL = /\/api\/files\/([0-9a-f-]{36})\//;
