import globalTeardown from '../test/global-teardown';
import { writePerformanceDoc } from './support/report';

export default async function benchTeardown(globalConfig: {
  testPathPatterns?: { patterns?: string[] };
}): Promise<void> {
  const startedAt = (globalThis as { benchStartedAt?: number }).benchStartedAt ?? Date.now();
  // Only a full run rewrites the table; `npm run bench -- bench/x.bench.ts` just prints.
  const partial = (globalConfig.testPathPatterns?.patterns?.length ?? 0) > 0;
  if (!partial) writePerformanceDoc(new Date(startedAt), (Date.now() - startedAt) / 1000);
  await globalTeardown();
}
