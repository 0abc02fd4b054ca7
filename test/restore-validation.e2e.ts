import { DataSource } from 'typeorm';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A restore writes what it is given straight into the cases, so it must refuse what the commands
 * refuse: links the browser would open or frame (`javascript:`, `data:`), file urls that are not
 * http(s) or stored files, texts and numbers out of bounds, more notes than a case may hold. Each
 * answers 400 naming the entry, and nothing changes.
 */
describe('POST /api/restore validates as the commands do', () => {
  let lab: TestApp;
  let admin: ApiClient;
  let dataSource: DataSource;

  const eventCount = async (): Promise<number> =>
    (await dataSource.query('SELECT count(*)::int AS n FROM events'))[0].n;

  /** Today's backup with one field of its first case changed. */
  async function backupWith(change: Record<string, unknown>) {
    const backup = (await admin.get('/backup')).body;
    Object.assign(backup.cases[0], change);
    return { backup, id: backup.cases[0].id as string };
  }

  /** Refused with 400 naming the entry, and neither the log nor the cases changed. */
  async function expectRefused(change: Record<string, unknown>, problem: string): Promise<void> {
    const before = await eventCount();
    const backupBefore = (await admin.get('/backup')).body;
    const { backup, id } = await backupWith(change);
    const answer = await admin.post('/restore', backup);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(`Invalid case at index 0 (${id}): ${problem}`);
    expect(await eventCount()).toBe(before);
    expect((await admin.get('/backup')).body).toEqual(backupBefore);
  }

  const note = (index: number, text: string) => ({
    id: `note-${index}`,
    author: 'admin',
    role: 'Manager',
    text,
    timestamp: '2024-05-01T10:00:00.000Z',
  });

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
    dataSource = lab.app.get(DataSource);
  });
  afterAll(() => lab?.close());

  it.each([
    ['simulationVideoUrl', 'javascript:alert(document.cookie)'],
    ['simulationVideoUrl', 'data:text/html,<script>alert(1)</script>'],
    ['simulationExternalLink', 'javascript:alert(1)'],
    ['simulationExternalLink', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['simulationExternalLink', 'vbscript:msgbox(1)'],
  ])('refuses %s %j, which the command refuses too', async (field, link) => {
    await expectRefused({ [field]: link }, `${field} must be an http(s) URL.`);

    // The same link through the command that saves it: refused by the same rule.
    const created = await admin.post('/cases', {
      patientName: 'Link Check',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles',
    });
    const answer = await admin.put(`/cases/${created.body.id}`, { [field]: link });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/must be an http\(s\) URL\.$/);
  });

  it.each([
    'javascript:alert(1)',
    'data:application/octet-stream;base64,AAAA',
    '//evil.example/scan.stl',
    'file:///etc/passwd',
  ])('refuses a file url %j', async (url) => {
    await expectRefused(
      { files: [{ name: 'upper.stl', type: 'STL', url, size: '1.23 MB' }] },
      'files[0].url must be an http(s) URL or a stored file.',
    );
  });

  it('refuses a link or a note text longer than the commands take', async () => {
    await expectRefused(
      { simulationVideoUrl: `https://viewer.example/${'a'.repeat(2048)}` },
      'simulationVideoUrl must be at most 2048 characters.',
    );
    await expectRefused(
      { notes: [note(0, 'x'.repeat(5001))] },
      'notes[0].text must be at most 5000 characters.',
    );
  });

  it('refuses prices and sheet counts out of the pricing form’s range', async () => {
    await expectRefused({ price: 2_000_000 }, 'Price must be between 0 and 1000000.');
    await expectRefused({ upperSheets: 500 }, 'Sheet counts must be whole numbers between 0 and 200.');
  });

  it('refuses more notes than a case may hold, by count and by total size', async () => {
    await expectRefused(
      { notes: Array.from({ length: 10_001 }, (_, index) => note(index, 'n')) },
      'notes has more than 10000 entries.',
    );
    // 1,001 notes of 5,000 characters: each within its own limit, 5,005,000 characters in all.
    await expectRefused(
      { notes: Array.from({ length: 1_001 }, (_, index) => note(index, 'x'.repeat(5_000))) },
      'notes must hold at most 5000000 characters in all.',
    );
  });

  it('restores what the commands accept: http(s) links, stored files, the older format’s "#", a case at the notes bound', async () => {
    const { backup, id } = await backupWith({
      simulationVideoUrl: 'https://viewer.example/video/1',
      simulationExternalLink: 'http://viewer.example/plan/1',
      files: [
        { name: 'upper.stl', type: 'STL', url: 'https://files.example/upper.stl', size: '1.23 MB' },
        { name: 'lower.stl', type: 'STL', url: '/api/files/0123abcd/lower.stl', size: '1.10 MB' },
        { name: 'photo.jpg', type: 'Photo', url: '#', size: '0.00 MB' },
      ],
      notes: Array.from({ length: 10_000 }, (_, index) => note(index, 'n')),
    });
    const answer = await admin.post('/restore', backup);
    expect(answer.status).toBe(200);
    const restored = (await admin.get(`/cases/${id}`)).body;
    expect(restored.simulationVideoUrl).toBe('https://viewer.example/video/1');
    expect(restored.files.map((file: { url: string }) => file.url)).toEqual([
      'https://files.example/upper.stl',
      '/api/files/0123abcd/lower.stl',
      '#',
    ]);
    expect(restored.notes).toHaveLength(10_000);

    // At the bound a person's note is refused (409, the limit named); the case stays as it was.
    const refused = await admin.post(`/cases/${id}/notes`, { text: 'One more' });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'This case has reached its limit of 10,000 notes. No more notes can be added.' },
    });
    expect((await admin.get(`/cases/${id}`)).body.notes).toHaveLength(10_000);
  });
});
