import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

export const AI_TEXTS = {
  notConfigured: 'AI photo analysis is not configured.',
  modelFailed: 'Failed to analyze image due to an API error.',
  notAnImage: (mime: string | undefined) =>
    `File is not a valid image. MIME type received: ${mime || 'unknown'}.`,
  notAPhotoOfTheCase: 'That file is not a stored photo of this case.',
  analyzing: 'Analyzing image with Gemini AI...',
} as const;

/** The prompt of spec section 9. */
export const DEFECT_PROMPT =
  'You are a quality inspector in a dental laboratory that makes clear aligners. Inspect this photo of an ' +
  'aligner and write a one-paragraph summary of any defects: rough or sharp edges, cloudiness, cracks or ' +
  "bubbles. Begin with 'No defects found.' or 'Potential defects identified:'.";

const TIMEOUT_MS = 60_000;

/**
 * A fast-tier multimodal model behind the generateContent API (Gemini's shape). AI_ENDPOINT
 * points tests at a local stand-in; without AI_API_KEY the feature reports itself unconfigured.
 */
@Injectable()
export class PhotoAnalysisModel {
  private readonly logger = new Logger('PhotoAnalysis');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return !!this.config.ai.apiKey;
  }

  async analyze(image: Buffer, mimeType: string): Promise<string> {
    const { endpoint, model, apiKey } = this.config.ai;
    const response = await fetch(`${endpoint}/v1beta/models/${encodeURIComponent(model)}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey! },
      body: JSON.stringify({
        contents: [
          {
            parts: [
              { inline_data: { mime_type: mimeType, data: image.toString('base64') } },
              { text: DEFECT_PROMPT },
            ],
          },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      this.logger.warn(`The model answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      throw new Error(`model status ${response.status}`);
    }
    const answer = (await response.json()) as {
      candidates?: { content?: { parts?: { text?: string }[] } }[];
    };
    const text = answer.candidates?.[0]?.content?.parts
      ?.map((part) => part.text ?? '')
      .join('')
      .trim();
    if (!text) throw new Error('the model gave no text');
    return text;
  }
}
