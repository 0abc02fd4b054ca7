import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { DEFAULT_MATERIAL_SETTINGS, toCaseSummary, type Case, type User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { withCaseParts } from '../../test/caseDetail';
import { fakeServer, type Route } from '../../test/fakeServer';
import { after, designer, E, makeCase, manager, representative, technician } from '../../test/fixtures';
import { defaultHome, homeTabs } from './homeScreens';
import { MyQueue } from './MyQueue';

const day = (offset: number) => {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

const now = () => new Date().toISOString();

/** In Thermoforming for 5 hours. */
const urgent = makeCase(
  {
    id: 'CA-2025-101',
    patientName: 'Ada Urgent',
    status: 'Model Printing',
    priority: 'High',
    deliveryDate: day(1),
  },
  [E.advanced('Model Printing', 'Thermoforming'), technician, hoursAgo(5)],
);
/** In Quality Check for 3 days. */
const later = makeCase(
  { id: 'CA-2025-102', patientName: 'Ben Later', status: 'Trimming & Polishing', deliveryDate: day(12) },
  [E.advanced('Trimming & Polishing', 'Quality Check'), technician, hoursAgo(72)],
);

function setup(routes: Record<string, Route>, user: User = technician) {
  cache.begin(user);
  const server = fakeServer(routes);
  const onOpenCase = vi.fn();
  const onScan = vi.fn();
  render(withCaseParts(<MyQueue user={user} onOpenCase={onOpenCase} onScan={onScan} />));
  return { server, onOpenCase, onScan };
}

const summaries = (...cases: Case[]) => cases.map(toCaseSummary);
const cards = () => within(screen.getByRole('list', { name: 'Cases in my queue' })).getAllByRole('listitem');
const cardOf = (id: string) => cards().find((card) => card.getAttribute('data-case-id') === id)!;

/** The lot picker's reads: an empty register, the default settings. */
const MATERIALS_ROUTES: Record<string, Route> = {
  'GET /materials/lots': { body: [] },
  'GET /materials/settings': { body: DEFAULT_MATERIAL_SETTINGS },
};

/** At Thermoforming the card's button opens the lot picker; its Complete Stage sends the advance. */
async function completeThermoformingWithoutLots() {
  fireEvent.click(screen.getByRole('button', { name: 'Complete Stage & Advance' }));
  const dialog = await screen.findByRole('dialog', { name: 'Complete Thermoforming' });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Complete Stage' }));
}

describe('MyQueue', () => {
  it('shows each case of GET /work-queue in its order, with what the bench needs to see', async () => {
    setup({ 'GET /work-queue': { body: summaries(urgent, later) } });
    await screen.findByRole('list', { name: 'Cases in my queue' });
    expect(cards().map((card) => card.getAttribute('data-case-id'))).toEqual(['CA-2025-101', 'CA-2025-102']);
    expect(screen.getByRole('heading', { name: /My Queue/ }).textContent).toContain('2 cases');

    const first = within(cardOf('CA-2025-101'));
    expect(first.getByText('Ada Urgent')).toBeTruthy();
    expect(first.getByText('Thermoforming')).toBeTruthy();
    expect(first.getByText('High priority')).toBeTruthy();
    expect(first.getByText('At risk')).toBeTruthy();
    expect(first.getByText(/In stage: 5 h/)).toBeTruthy();
    expect(first.getByText(/Due in 1 day\(s\)/)).toBeTruthy();

    const second = within(cardOf('CA-2025-102'));
    expect(second.getByText('Normal')).toBeTruthy();
    expect(second.queryByText('At risk')).toBeNull();
    expect(second.getByText(/In stage: 3\.0 d/)).toBeTruthy();
  });

  it('one tap advances with fromStatus; the case leaves the queue when it leaves the role', async () => {
    const { server } = setup({
      'GET /work-queue': { body: summaries(urgent, later) },
      'POST /cases/CA-2025-102/advance': {
        body: after(later, [E.advanced('Quality Check', 'Packaging & Labeling'), technician, now()]),
      },
    });
    await screen.findByRole('list', { name: 'Cases in my queue' });
    fireEvent.click(within(cardOf('CA-2025-102')).getByRole('button', { name: 'Complete Stage & Advance' }));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(server.calls('POST', '/cases/CA-2025-102/advance')[0].body).toEqual({
      fromStatus: 'Quality Check',
    });
    expect(cache.get().cases.find((item) => item.id === 'CA-2025-102')?.status).toBe('Packaging & Labeling');
  });

  it('a case advanced within the role moves on in place', async () => {
    setup({
      ...MATERIALS_ROUTES,
      'GET /work-queue': { body: summaries(urgent) },
      'POST /cases/CA-2025-101/advance': {
        body: after(urgent, [E.advanced('Thermoforming', 'Trimming & Polishing'), technician, now()]),
      },
    });
    await screen.findByRole('list', { name: 'Cases in my queue' });
    await completeThermoformingWithoutLots();
    await vi.waitFor(() =>
      expect(within(cardOf('CA-2025-101')).getByText('Trimming & Polishing')).toBeTruthy(),
    );
  });

  it('a 409 shows the server text on the card and reloads the case', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { server } = setup({
      ...MATERIALS_ROUTES,
      'GET /work-queue': { body: summaries(urgent) },
      'POST /cases/CA-2025-101/advance': {
        status: 409,
        body: { error: 'The case was changed by someone else. Reload and try again.' },
      },
      // Someone else advanced it first.
      'GET /cases/CA-2025-101': {
        body: after(urgent, [E.advanced('Thermoforming', 'Trimming & Polishing'), technician, now()]),
      },
    });
    await screen.findByRole('list', { name: 'Cases in my queue' });
    await completeThermoformingWithoutLots();
    await vi.waitFor(() => expect(server.calls('GET', '/cases/CA-2025-101')).toHaveLength(1));
    const card = within(cardOf('CA-2025-101'));
    await vi.waitFor(() => expect(card.getByText('Trimming & Polishing')).toBeTruthy());
    expect(card.getByRole('alert').textContent).toBe(
      'The case was changed by someone else. Reload and try again.',
    );
  });

  it('follows the live stream: a case reaching the role joins in order, a held one leaves', async () => {
    setup({ 'GET /work-queue': { body: summaries(later) } });
    await screen.findByRole('list', { name: 'Cases in my queue' });
    cache.upsertCase(toCaseSummary(urgent));
    await vi.waitFor(() =>
      expect(cards().map((card) => card.getAttribute('data-case-id'))).toEqual([
        'CA-2025-101',
        'CA-2025-102',
      ]),
    );
    cache.upsertCase(toCaseSummary(after(later, [E.held(), manager, now()])));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
  });

  it('opens a case on tap and the scanner from its button', async () => {
    const { onOpenCase, onScan } = setup({ 'GET /work-queue': { body: summaries(urgent) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open case CA-2025-101, Ada Urgent' }));
    expect(onOpenCase).toHaveBeenCalledWith('CA-2025-101');
    fireEvent.click(screen.getByRole('button', { name: 'Scan Case QR Code' }));
    expect(onScan).toHaveBeenCalled();
  });

  it('says so when the queue is empty', async () => {
    setup({ 'GET /work-queue': { body: [] } });
    expect(
      await screen.findByText(
        'Nothing in your queue. Cases you can work on appear here as they reach your stage.',
      ),
    ).toBeTruthy();
  });

  it('shows loading, then the error with Retry, which reads the queue again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const { server } = setup({
      'GET /work-queue': () => (fail ? { status: 500, body: { error: 'Database down' } } : { body: [] }),
    });
    expect(screen.getByRole('status').textContent).toContain('Loading your queue...');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your queue could not be loaded. Database down');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/Nothing in your queue/)).toBeTruthy();
    expect(server.calls('GET', '/work-queue')).toHaveLength(2);
  });

  it('disables the button with the guidance text when the rule says no', async () => {
    setup({ 'GET /work-queue': { body: summaries(urgent) } }, designer);
    await screen.findByRole('list', { name: 'Cases in my queue' });
    const button = screen.getByRole('button', { name: 'Complete Stage & Advance' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText('This stage can only be completed by: Technician or Manager')).toBeTruthy();
  });
});

describe('home screens', () => {
  it('makes My Queue the home of the bench roles and a tab for Managers', () => {
    expect(defaultHome(technician.role)).toBe('queue');
    expect(defaultHome(designer.role)).toBe('queue');
    expect(defaultHome(representative.role)).toBe('queue');
    expect(defaultHome(manager.role)).toBe('dashboard');
    expect(homeTabs(manager.role)).toEqual(['dashboard', 'queue']);
    expect(homeTabs(technician.role)).toEqual(['queue', 'dashboard']);
    expect(defaultHome('Doctor')).toBeNull();
  });
});
