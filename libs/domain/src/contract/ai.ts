/** `POST /ai/analyze-photo` (api.md, Files and AI). */

/** The photo to analyse: a stored Photo file of a case the caller may see. */
export interface AnalyzePhotoBody {
  caseId: string;
  fileUrl: string;
}

/** The model's description of the photo. */
export interface PhotoAnalysisAnswer {
  text: string;
}
