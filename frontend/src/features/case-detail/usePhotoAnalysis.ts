import { useCallback, useState } from 'react';
import { caseDetailApi } from '../case-shared/caseDetailApi';

export type PhotoAnalysis =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; text: string }
  | { status: 'failed'; reason: string };

/** 'Analyze with AI' for one photo: the server fetches the stored photo and asks the model. */
export function usePhotoAnalysis(caseId: string, fileUrl: string) {
  const [analysis, setAnalysis] = useState<PhotoAnalysis>({ status: 'idle' });
  const analyze = useCallback(async () => {
    setAnalysis({ status: 'running' });
    try {
      const { text } = await caseDetailApi.analyzePhoto(caseId, fileUrl);
      setAnalysis({ status: 'done', text });
    } catch (error) {
      setAnalysis({ status: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
  }, [caseId, fileUrl]);
  return { analysis, analyze };
}
