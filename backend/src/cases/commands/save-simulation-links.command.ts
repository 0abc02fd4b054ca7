import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class SaveSimulationLinksCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly links: { simulationVideoUrl: unknown; simulationExternalLink: unknown },
  ) {
    super(caseId, actor, options);
  }
}

export const SaveSimulationLinksHandler = caseCommandHandler(SaveSimulationLinksCommand, (command) => ({
  type: 'SaveSimulationLinks',
  simulationVideoUrl: command.links.simulationVideoUrl,
  simulationExternalLink: command.links.simulationExternalLink,
}));
