import type { DataSource } from 'typeorm';
import { LeaderLoop } from '../event-store/leader-loop.js';
import type { EventStore } from '../event-store/event-store.js';
import type { BillingStore } from './billing-store.js';
import type { InvoiceCommandService } from './invoice-command.service.js';
import { InvoiceIssuer } from './invoice-issuer.js';

/** The API process answers requests and nothing else: invoices are issued by the workers. */
describe('InvoiceIssuer by process role', () => {
  afterEach(() => jest.restoreAllMocks());

  const issuerIn = (processRole: 'all' | 'api' | 'worker') =>
    new InvoiceIssuer(
      {} as DataSource,
      {} as EventStore,
      {} as BillingStore,
      {} as InvoiceCommandService,
      undefined,
      { processRole },
    );

  it.each(['all', 'worker'] as const)('follows the log in PROCESS_ROLE=%s', (role) => {
    const start = jest.spyOn(LeaderLoop.prototype, 'start').mockImplementation(() => undefined);
    issuerIn(role).onApplicationBootstrap();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('does not follow the log in PROCESS_ROLE=api', () => {
    const start = jest.spyOn(LeaderLoop.prototype, 'start').mockImplementation(() => undefined);
    issuerIn('api').onApplicationBootstrap();
    expect(start).not.toHaveBeenCalled();
  });
});
