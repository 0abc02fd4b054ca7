// Test support for the case detail tests (imported by *.test.tsx only; never part of the app bundle).
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { CASE_STATUSES, statusIndex, type Case, type CaseStatus, type User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Toaster } from '../../components/Toaster';
import { fakeServer, type Route } from '../../test/fakeServer';
import { allUsers, makeCase } from '../../test/fixtures';
import { CaseDetail } from './CaseDetail';

/** A case at `status` with the workflow steps the server would have: earlier steps completed. */
export function caseAt(status: CaseStatus, overrides: Partial<Case> = {}): Case {
  const current = statusIndex(status);
  return makeCase({
    id: 'CA-2025-123',
    patientName: 'Emma Thompson',
    doctorName: 'Dr. Sarah Lee',
    clinicName: 'Bright Smiles Dental',
    status,
    alignerWorkflow: CASE_STATUSES.map((name, index) => ({
      name,
      completed: status === 'Completed' || index < current,
      date: index < current ? `2025-01-${String(index + 1).padStart(2, '0')}T10:00:00.000Z` : null,
      assignedTo: 'Tech Team',
    })),
    ...overrides,
  });
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
