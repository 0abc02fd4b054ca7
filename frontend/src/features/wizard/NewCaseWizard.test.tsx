import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { NewCaseInput, User } from '@alignerflow/domain';
import { apply, run } from '@alignerflow/domain/testing';
import { cache } from '../../api/cache';
import { isoDay } from '../../components/format';
import { fakeServer } from '../../test/fakeServer';
import { doctor, manager, representative } from '../../test/fixtures';
import { FakeXhr } from '../../test/fakeXhr';
import { NewCaseWizard } from './NewCaseWizard';

function setup(user: User = manager, routes: Parameters<typeof fakeServer>[0] = {}) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const actor = { username: user.username, role: user.role };
  const server = fakeServer({
    // The case the server makes of the form: the domain decides the creation, as the server does.
    'POST /cases': (request) => ({
      status: 201,
      body: apply(
        null,
        run(null, { type: 'CreateCase', caseId: 'CA-2025-321', input: request.body as NewCaseInput }, actor),
        actor,
      ),
    }),
    ...routes,
  });
  cache.begin(user);
  const handlers = { onClose: vi.fn(), onCreated: vi.fn() };
  render(<NewCaseWizard user={user} {...handlers} />);
  const dialog = screen.getByRole('dialog', { name: 'New Clear Aligner Case' });
  return { server, handlers, dialog };
}

const button = (name: string) => screen.getByRole('button', { name });
const stepLabels = () =>
  Array.from(document.querySelectorAll('.wizard-steps__label')).map((label) => label.textContent);
const stepHeading = () => screen.getByRole('heading', { level: 3 }).textContent;

function fillCaseInfo(values: { patient?: string; doctor?: string; clinic?: string } = {}) {
  fireEvent.change(screen.getByLabelText('Patient Name'), {
    target: { value: values.patient ?? 'Jane Roe' },
  });
  fireEvent.change(screen.getByLabelText('Doctor Name'), { target: { value: values.doctor ?? 'Dr. Lee' } });
  fireEvent.change(screen.getByLabelText('Clinic Name'), {
    target: { value: values.clinic ?? 'Smile Clinic' },
  });
}

function stl(name = 'upper.stl') {
  return new File(['solid x facet'], name, { type: 'model/stl' });
}

function chooseFile(label: string, file: File) {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

beforeEach(() => {
  FakeXhr.reset();
});

describe('NewCaseWizard: steps per role', () => {
  it('non-doctors get Case Info, Patient Details, STL Files, Photos, Review', () => {
    setup(representative);
    expect(stepLabels()).toEqual(['Case Info', 'Patient Details', 'STL Files', 'Photos', 'Review']);
    expect(screen.getByRole('listitem', { current: 'step' }).textContent).toContain('Case Info');
    expect(button('Cancel')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
  });

  it('doctors get a Payment step before Review, and their name as doctor', () => {
    setup(doctor);
    expect(stepLabels()).toEqual([
      'Case Info',
      'Patient Details',
      'STL Files',
      'Photos',
      'Payment',
      'Review',
    ]);
    expect((screen.getByLabelText('Doctor Name') as HTMLInputElement).value).toBe('dr.lee');
  });

  it('asks for a due date, by default today + 14 days; priority Normal or High', () => {
    setup();
    const due = new Date();
    due.setDate(due.getDate() + 14);
    expect((screen.getByLabelText('Due Date') as HTMLInputElement).value).toBe(isoDay(due));
    expect((screen.getByLabelText('Normal') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('High'));
    expect((screen.getByLabelText('High') as HTMLInputElement).checked).toBe(true);
  });

  it('Back and Next move between the steps; the last step has Submit Case', () => {
    setup();
    fillCaseInfo();
    fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('Patient Details');
    fireEvent.click(button('Back'));
    expect(stepHeading()).toBe('Case Info');
    expect((screen.getByLabelText('Patient Name') as HTMLInputElement).value).toBe('Jane Roe');
    for (const heading of ['Patient Details', 'STL Files', 'Photos', 'Review']) {
      fireEvent.click(button('Next'));
      expect(stepHeading()).toBe(heading);
    }
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(button('Submit Case')).toBeTruthy();
  });
});

describe('NewCaseWizard: required fields (spec section 5, shared rule checkNewCase)', () => {
  it('shows the messages, stays on the step and clears a message when the field is filled', () => {
    setup();
    fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('Case Info');
    expect(screen.getByText('Patient name is required.')).toBeTruthy();
    expect(screen.getByText('Doctor name is required.')).toBeTruthy();
    expect(screen.getByText('Clinic name is required.')).toBeTruthy();
    const patient = screen.getByLabelText('Patient Name');
    expect(patient.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(patient);

    fireEvent.change(patient, { target: { value: 'Jane Roe' } });
    expect(screen.queryByText('Patient name is required.')).toBeNull();
    expect(screen.getByText('Clinic name is required.')).toBeTruthy();
  });

  it('blank text is not a name', () => {
    setup();
    fillCaseInfo({ patient: '   ' });
    fireEvent.click(button('Next'));
    expect(screen.getByText('Patient name is required.')).toBeTruthy();
  });
});

describe('NewCaseWizard: payment (doctors)', () => {
  function toPayment() {
    fillCaseInfo();
    for (let i = 0; i < 4; i += 1) fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('Payment');
  }

  it('shows $50.00, takes 2.5 s with progress, then advances to Review', () => {
    setup(doctor);
    vi.useFakeTimers();
    toPayment();
    expect(screen.getByText('$50.00')).toBeTruthy();
    expect(button('Next').hasAttribute('disabled')).toBe(true);
    fireEvent.click(button('Pay $50.00'));
    expect(screen.getByText('Processing payment...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1000));
    const progress = screen.getByLabelText('Payment progress') as HTMLProgressElement;
    expect(progress.value).toBe(40);
    act(() => vi.advanceTimersByTime(1499));
    expect(stepHeading()).toBe('Payment');
    act(() => vi.advanceTimersByTime(1));
    expect(stepHeading()).toBe('Review');
    expect(screen.getByText('$50.00 · Payment complete')).toBeTruthy();

    fireEvent.click(button('Back'));
    expect(screen.getByText('Payment complete')).toBeTruthy();
    expect(button('Next').hasAttribute('disabled')).toBe(false);
  });
});

describe('NewCaseWizard: uploads', () => {
  function toStl() {
    fillCaseInfo();
    fireEvent.click(button('Next'));
    fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('STL Files');
  }

  it('uploads a chosen file at once with progress, then submits the uploaded files', async () => {
    const { server, handlers } = setup();
    toStl();
    expect(screen.getByLabelText('Upper').getAttribute('accept')).toBe('.stl');
    expect(screen.getByLabelText('Lower').getAttribute('accept')).toBe('.stl');
    chooseFile('Upper', stl());
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/upload');
    expect(xhr.body?.get('type')).toBe('STL');
    expect((xhr.body?.get('file') as File).name).toBe('upper.stl');

    act(() => xhr.progress(50, 100));
    expect(screen.getByText('Uploading… 50%')).toBeTruthy();
    expect((screen.getByLabelText('Upper upload progress') as HTMLProgressElement).value).toBe(50);
    await act(async () =>
      xhr.respond(201, { url: '/api/files/u1/upper.stl', name: 'upper.stl', size: '0.01 MB', type: 'STL' }),
    );
    expect(screen.getByText(/Uploaded/)).toBeTruthy();

    fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('Photos');
    for (const slot of ['Photo 1', 'Photo 2', 'Photo 3', 'Photo 4']) {
      expect(screen.getByLabelText(slot).getAttribute('accept')).toBe('image/*');
    }
    chooseFile('Photo 2', new File(['png'], 'smile.png', { type: 'image/png' }));
    const photo = FakeXhr.last();
    expect(photo.body?.get('type')).toBe('Photo');

    fireEvent.click(button('Next'));
    expect(stepHeading()).toBe('Review');
    fireEvent.click(button('Submit Case'));
    expect(button('Submitting...').hasAttribute('disabled')).toBe(true);
    // Submit waits for the photo still uploading.
    expect(server.calls('POST', '/cases')).toHaveLength(0);
    await act(async () =>
      photo.respond(201, {
        url: '/api/files/p2/smile.png',
        name: 'smile.png',
        size: '0.01 MB',
        type: 'Photo',
      }),
    );
    await vi.waitFor(() => expect(handlers.onCreated).toHaveBeenCalled());
    const [sent] = server.calls('POST', '/cases');
    expect(sent.body).toMatchObject({
      patientName: 'Jane Roe',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
      files: [
        { url: '/api/files/u1/upper.stl', name: 'upper.stl', size: '0.01 MB', type: 'STL' },
        { url: '/api/files/p2/smile.png', name: 'smile.png', size: '0.01 MB', type: 'Photo' },
      ],
    });
    expect(handlers.onCreated.mock.calls[0][0].id).toBe('CA-2025-321');
    expect(cache.get().cases.map((item) => item.id)).toContain('CA-2025-321');
  });

  it.each([
    [
      'the server error text',
      400,
      { error: 'The STL slots accept only .stl files.' },
      'The STL slots accept only .stl files.',
    ],
    ['the status when the body has no error', 500, 'oops', 'Upload failed with status 500'],
    [
      'too large',
      413,
      { error: 'The file is too large: STL files up to 200 MB.' },
      'The file is too large: STL files up to 200 MB.',
    ],
    ['an unreadable success answer', 201, 'not json', 'Upload failed'],
  ])('shows %s in red next to the submit button', async (_label, status, body, text) => {
    setup();
    toStl();
    chooseFile('Upper', stl());
    await act(async () => FakeXhr.last().respond(status, body));
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe(text);
    expect(error.className).toBe('wizard-footer__error');
    expect(error.closest('.dialog__footer')).toBeTruthy();
  });

  it("shows 'Network error during upload' and resets the submit state", async () => {
    const { server } = setup();
    toStl();
    chooseFile('Lower', stl('lower.stl'));
    fireEvent.click(button('Next'));
    fireEvent.click(button('Next'));
    fireEvent.click(button('Submit Case'));
    expect(button('Submitting...').hasAttribute('disabled')).toBe(true);
    await act(async () => FakeXhr.last().failNetwork());
    expect(screen.getByText('Network error during upload').className).toBe('wizard-footer__error');
    expect(button('Submit Case').hasAttribute('disabled')).toBe(false);
    expect(server.calls('POST', '/cases')).toHaveLength(0);
  });

  it('a removed failed upload no longer blocks the submission', async () => {
    const { handlers } = setup();
    toStl();
    chooseFile('Upper', stl());
    await act(async () => FakeXhr.last().respond(500, ''));
    expect(screen.getByText('Upload failed with status 500')).toBeTruthy();
    fireEvent.click(button('Remove Upper file'));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(button('Next'));
    fireEvent.click(button('Next'));
    fireEvent.click(button('Submit Case'));
    await vi.waitFor(() => expect(handlers.onCreated).toHaveBeenCalled());
  });

  it("shows the server's refusal of the case next to the submit button", async () => {
    setup(manager, { 'POST /cases': { status: 400, body: { error: 'Clinic name is required.' } } });
    fillCaseInfo();
    for (let i = 0; i < 4; i += 1) fireEvent.click(button('Next'));
    fireEvent.click(button('Submit Case'));
    expect(await screen.findByText('Clinic name is required.')).toBeTruthy();
    expect(button('Submit Case').hasAttribute('disabled')).toBe(false);
  });
});
