/** "Jane van Doe" → "J.v.D."; a name without letters stays unnamed. */
export function patientInitials(name: string): string {
  const initials = name
    .trim()
    .split(/[\s-]+/)
    .map((part) => [...part].find((char) => /\p{L}/u.test(char)))
    .filter((char): char is string => !!char)
    .map((char) => `${char}.`)
    .join('');
  return initials || 'patient';
}
