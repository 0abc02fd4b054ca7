import { CaseCommandBase, caseCommandHandler } from '../../cases/commands/case-command.base.js';

export class RecordShipmentCommand extends CaseCommandBase<{
  carrier?: string;
  trackingNumber?: string;
  shippedAt?: string;
}> {}

export const RecordShipmentHandler = caseCommandHandler(RecordShipmentCommand, ({ input }) => ({
  type: 'RecordShipment',
  carrier: input.carrier,
  trackingNumber: input.trackingNumber,
  shippedAt: input.shippedAt,
}));

export class MarkReceivedCommand extends CaseCommandBase {}

export const MarkReceivedHandler = caseCommandHandler(MarkReceivedCommand, () => ({ type: 'MarkReceived' }));
