import { caseStreamId } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { LiveStreamService } from '../backend/src/live/live-stream.service';
import type { ApiClient } from './support/http';
import { eventually, LIVE_TEST_TIMEOUT_MS, SseStream } from './support/sse';
import { startTestApp, type TestApp } from './support/test-app';

/** What the live stream carries of a whole case: no notes, their count. */
function summaryOf({ notes, ...fields }: { notes: unknown[] }) {
  return { ...fields, noteCount: notes.length };
}

jest.setTimeout(LIVE_TEST_TIMEOUT_MS);

/** A small recent window, so a test can push an id out of it with a few notes. */
const WINDOW = 5;

/**
 * What one client may cost the live stream: at most five streams per session (a sixth closes the
 * oldest), and a reconnect from an id older than the server's recent window costs a full refresh
 * from the read models, never a read of the event log.
 */
describe('live stream limits', () => {
  let lab: TestApp;
  let admin: ApiClient;
  let live: LiveStreamService;
  let dataSource: DataSource;
  const streams: SseStream[] = [];

  async function open(client: ApiClient, lastEventId?: string): Promise<SseStream> {
    const stream = await SseStream.open(`${lab.apiUrl}/events`, { token: client.token, lastEventId });
    streams.push(stream);
    return stream;
  }

  const withId = (stream: SseStream) => stream.until(() => stream.lastEventId !== '', 'an id');

  /** The positions of a case's events, oldest first. */
  async function positions(caseId: string): Promise<string[]> {
    const rows: { position: string }[] = await dataSource.query(
      'SELECT global_position::text AS position FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [caseStreamId(caseId)],
    );
    return rows.map((row) => row.position);
  }

  /**
   * The statements on the events table that the stream code sent while `during` ran, seen on the
   * application's own DataSource (each call passes through unchanged; its JS stack tells whose it
   * is — the tailer's and the notification dispatcher's reads are left out). A stream that opens
   * after the tailer skipped reads (its poll fired while no stream was open) first moves the
   * tailer to the log's end, whatever id it resumes from: that one lookup of the end is the
   * tailer's too, not a read of what the stream missed.
   */
  async function logReadsByStreams(during: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    const query = dataSource.query.bind(dataSource);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    const spy = jest.spyOn(dataSource, 'query').mockImplementation(((sql: string, ...rest: unknown[]) => {
      const stack = new Error().stack ?? '';
      if (/\bevents\b/.test(sql) && stack.includes('LiveStreamService') && !stack.includes('fastForward'))
        seen.push(sql);
      return (query as (...args: unknown[]) => unknown)(sql, ...rest);
    }) as typeof dataSource.query);
    try {
      await during();
    } finally {
      spy.mockRestore();
      Error.stackTraceLimit = limit;
    }
    return seen;
  }

  beforeAll(async () => {
    process.env.LIVE_REPLAY_WINDOW = String(WINDOW);
    try {
      lab = await startTestApp();
    } finally {
      delete process.env.LIVE_REPLAY_WINDOW;
    }
    admin = await lab.login('admin');
    live = lab.app.get(LiveStreamService);
    dataSource = lab.app.get(DataSource);
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await eventually(() => live.clientCount === 0, 'every stream to be forgotten');
  });

  afterAll(() => lab?.close());

  it('keeps at most 5 streams per session: a sixth closes the oldest with a retry hint', async () => {
    const own: SseStream[] = [];
    for (let n = 0; n < 5; n++) {
      own.push(await open(admin));
      await withId(own[n]);
    }
    // Another session of the same user is not counted with the first.
    const otherSession = await lab.login('admin');
    const other = await open(otherSession);
    await withId(other);
    expect(live.clientCount).toBe(6);

    const sixth = await open(admin);
    await withId(sixth);
    await own[0].ended;
    expect(own[0].endedBy).toBe('server');
    // The opening hint, then the closing one.
    expect(own[0].retries).toHaveLength(2);
    expect(own[0].retries[1]).toBeGreaterThanOrEqual(2000);
    expect(live.clientCount).toBe(6);
    for (const stream of [...own.slice(1), sixth, other]) expect(stream.endedBy).toBeUndefined();

    // The ones left still get every change.
    const created = (
      await admin.post('/cases', { patientName: 'Cap', doctorName: 'D', clinicName: 'C', priority: 'Normal' })
    ).body.id as string;
    for (const stream of [...own.slice(1), sixth, other]) await stream.waitForEvent('case_created', created);
  });

  it('answers an id older than the recent window with cases_refresh, without reading the log', async () => {
    const first = await open(admin);
    await withId(first);
    const id = 'CA-2024-001';
    // More events than the window keeps: the first note's id falls out of it.
    for (let n = 0; n < WINDOW + 3; n++)
      expect((await admin.post(`/cases/${id}/notes`, { text: `note ${n}` })).status).toBe(201);
    const notes = (await positions(id)).slice(-(WINDOW + 3));
    await first.until(() => first.lastEventId === notes.at(-1), 'the last note');
    first.close();
    // A demo case's first event, written before the server started: older still.
    const seeded = (await positions('CA-2024-002'))[0];

    for (const old of [notes[0], seeded, '0']) {
      let resumed!: SseStream;
      const reads = await logReadsByStreams(async () => {
        resumed = await open(admin, old);
        await resumed.waitForEvent('users_refresh');
      });
      expect(reads).toEqual([]);
      const refresh = resumed.messages.find((message) => message.event === 'cases_refresh')!;
      expect(refresh.data).toEqual((await admin.get('/cases')).body);
      expect(resumed.of('case_updated')).toEqual([]);
      resumed.close();
    }
  });

  it('answers garbage and future ids with cases_refresh, without reading the log', async () => {
    for (const garbage of ['999999999999', 'not-a-position', '-1', '1e9']) {
      let resumed!: SseStream;
      const reads = await logReadsByStreams(async () => {
        resumed = await open(admin, garbage);
        await resumed.waitForEvent('users_refresh');
      });
      expect(reads).toEqual([]);
      expect(resumed.of('cases_refresh')).toHaveLength(1);
      resumed.close();
    }
  });

  it('still replays what was missed from an id inside the window (and that does read the log)', async () => {
    const first = await open(admin);
    await withId(first);
    const resumeFrom = first.lastEventId;
    first.close();
    const id = 'CA-2024-003';
    const noted = await admin.post(`/cases/${id}/notes`, { text: 'while away' });
    expect(noted.status).toBe(201);

    let resumed!: SseStream;
    const reads = await logReadsByStreams(async () => {
      resumed = await open(admin, resumeFrom);
      await resumed.waitForEvent('case_updated', id);
    });
    expect(reads.length).toBeGreaterThan(0);
    expect(resumed.of('case_updated', id).at(-1)!.data).toEqual(summaryOf(noted.body));
    expect(resumed.of('cases_refresh')).toEqual([]);
  });
});
