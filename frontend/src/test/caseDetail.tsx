// Test support for the case screen's tests (imported by *.test.tsx only; never part of the app
// bundle): the case detail with the parts the app gives it, as the signed-in app shows it.
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { Case, User } from '@alignerflow/domain';
import { cache } from '../api/cache';
import { Toaster } from '../components/Toaster';
import { fakeServer, type Route } from './fakeServer';
import { allUsers, makeCase, type CaseSpec, type Given, type RoadStatus } from './fixtures';
import { CASE_SCREEN_PARTS } from '../app/caseScreenParts';
import { CaseDetail } from '../features/case-detail/CaseDetail';
import { CaseScreenPartsContext } from '../features/case-shared/caseScreenParts';

/** Emma Thompson's case at `status` (makeCase's road), then `more`. */
export function caseAt(status: RoadStatus, spec: Omit<CaseSpec, 'status'> = {}, ...more: Given[]): Case {
  return makeCase(
    {
      id: 'CA-2025-123',
      patientName: 'Emma Thompson',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      ...spec,
      status,
    },
    ...more,
  );
}

/** `node` inside the case screen's parts, as the signed-in app gives them (the lot picker too). */
export function withCaseParts(node: ReactNode) {
  return <CaseScreenPartsContext.Provider value={CASE_SCREEN_PARTS}>{node}</CaseScreenPartsContext.Provider>;
}

export function renderDetail(
  user: User,
  item: Case,
  {
    users = allUsers,
    routes = {},
    caseId = item.id,
  }: { users?: User[] | null; routes?: Record<string, Route>; caseId?: string } = {},
) {
  const server = fakeServer(routes);
  cache.begin(user);
  // The list's summary and the whole case, as opening a case from the list gives them.
  cache.upsertCase(item);
  if (users) cache.setUsers(users);
  const props = { onBack: vi.fn(), onEdit: vi.fn(), onShowCaseQr: vi.fn(), onShowStageQrs: vi.fn() };
  const view = render(
    withCaseParts(
      <>
        <CaseDetail caseId={caseId} user={user} {...props} />
        <Toaster />
      </>,
    ),
  );
  return { server, props, view };
}

/** The cached whole case after a command. */
export const cached = (id = 'CA-2025-123') => cache.get().details[id];
