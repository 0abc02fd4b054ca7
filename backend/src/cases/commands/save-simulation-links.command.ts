import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class SaveSimulationLinksCommand extends CaseCommandBase<{
  simulationVideoUrl: unknown;
  simulationExternalLink: unknown;
}> {}

export const SaveSimulationLinksHandler = caseCommandHandler(SaveSimulationLinksCommand, ({ input }) => ({
  type: 'SaveSimulationLinks',
  ...input,
}));
