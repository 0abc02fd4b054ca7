// Test support for the case detail tests (imported by *.test.tsx only; never part of the app bundle).
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { Case, User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Toaster } from '../../components/Toaster';
import { fakeServer, type Route } from '../../test/fakeServer';
import { allUsers, makeCase, type CaseSpec, type Given, type RoadStatus } from '../../test/fixtures';
import { CaseDetail } from './CaseDetail';

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
    <>
      <CaseDetail caseId={caseId} user={user} {...props} />
      <Toaster />
    </>,
  );
  return { server, props, view };
}

/** The cached whole case after a command. */
export const cached = (id = 'CA-2025-123') => cache.get().details[id];
