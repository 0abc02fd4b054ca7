import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { Case, CaseStatus, Role, User } from '@alignerflow/domain';
import type { CaseAbilities } from './caseAbilities';
import type { CaseCommandRunner } from './useCaseCommand';

/** What a part of the case screen is given: the case, the viewer and the screen's commands. */
export interface CaseView {
  item: Case;
  user: User;
  abilities: CaseAbilities;
  commands: CaseCommandRunner;
  /** Opens another case (a remake's original, a new follow-up). */
  onOpenCase?: (caseId: string) => void;
}

/** A side tab another feature adds after the case screen's own tabs. */
export interface CaseTabPart {
  key: string;
  label: string;
  shownTo: (role: Role) => boolean;
  render: (view: CaseView) => ReactNode;
}

/** The lot picker 'Complete Stage & Advance' opens at the stages that record materials. */
export interface StageMaterialsProps {
  stage: CaseStatus;
  busy: boolean;
  error: string | undefined;
  onComplete: (lots: string[], machine: string) => void;
  onClose: () => void;
}

/**
 * The parts of the case screen and of My Queue that other features own (the ticket, the invoice,
 * the follow-up order, the plan's versions, the device record, the access log, the lot picker).
 * Features never import each other: the app puts them together (`app/caseScreenParts.tsx`) and
 * hands them down through this context, so case-detail names none of them.
 */
export interface CaseScreenParts {
  headerActions?: (view: CaseView) => ReactNode;
  belowHeader?: (view: CaseView) => ReactNode;
  belowPlan?: (view: CaseView) => ReactNode;
  belowWorkflow?: (view: CaseView) => ReactNode;
  addFiles?: (view: CaseView) => ReactNode;
  tabs?: readonly CaseTabPart[];
  StageMaterials?: ComponentType<StageMaterialsProps>;
}

export const CaseScreenPartsContext = createContext<CaseScreenParts>({});

export function useCaseScreenParts(): CaseScreenParts {
  return useContext(CaseScreenPartsContext);
}
