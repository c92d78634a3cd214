// The judge's settings: the config's judge section (schema defaults applied), with the run's overrides.
import type { CorpusConfig } from '../../ground/config/types';
import { DEFAULT_THRESHOLDS, type JudgeThresholds } from './types';

export const DEFAULT_API_KEY_ENV = 'REVIEW_CORPUS_JUDGE_KEY';

export interface JudgeSettings {
  endpoint?: string;
  model?: string;
  apiKeyEnv: string;
  price?: { prompt: number; completion: number };
  thresholds: JudgeThresholds;
  temperature: number;
  maxTokens: number;
  maxRps?: number;
  irrelevantComment: boolean;
}

export function judgeSettings(
  config: CorpusConfig | undefined,
  over: { endpoint?: string; model?: string; maxRps?: number } = {},
): JudgeSettings {
  const j = config?.judge;
  return {
    endpoint: over.endpoint ?? j?.endpoint,
    model: over.model ?? j?.model,
    apiKeyEnv: j?.apiKeyEnv ?? DEFAULT_API_KEY_ENV,
    price: j?.pricePer1kTokens,
    thresholds: { ...DEFAULT_THRESHOLDS, ...(j?.thresholds ?? {}) },
    temperature: j?.temperature ?? 0,
    maxTokens: j?.maxTokens ?? 1024,
    maxRps: over.maxRps ?? j?.maxRps,
    irrelevantComment: j?.irrelevantComment ?? false,
  };
}

/** Thresholds of a config (CuREV's when it has no judge section). */
export const thresholdsOf = (config: CorpusConfig | undefined): JudgeThresholds => judgeSettings(config).thresholds;
