import globalSetup from '../test/global-setup';
import { resetResults } from './support/report';

export default async function benchSetup(): Promise<void> {
  resetResults();
  (globalThis as { benchStartedAt?: number }).benchStartedAt = Date.now();
  await globalSetup();
}
