import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuildService } from '../backend/src/rebuild/projection-rebuild.service';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { useDemoAdmin } from './support/demo-users';

/** The admin endpoint of the projection rebuild and its guard rails, on the demo data. */
describe('projection rebuild: admin endpoint', () => {
  const demo = useDemoAdmin();
  const { admin } = demo;

  async function waitUntilFinished() {
    for (;;) {
      const progress = (await admin.get('/admin/rebuild-projections')).body;
      if (progress.state !== 'running') return progress;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('is for managers only', async () => {
    for (const name of ['rep', 'designer', 'tech', 'dr.lee']) {
      const other = await demo.lab.login(name);
      expect((await other.post('/admin/rebuild-projections')).status).toBe(403);
      expect((await other.get('/admin/rebuild-projections')).status).toBe(403);
    }
    expect((await demo.lab.anonymous.post('/admin/rebuild-projections')).status).toBe(401);
  });

  it('answers 202 with progress and reports it until done; reads keep working and keep their ETags', async () => {
    expect((await admin.get('/admin/rebuild-projections')).body).toMatchObject({
      state: 'idle',
      eventsDone: 0,
    });
    const cases = await admin.get('/cases');
    const users = await admin.get('/users');
    const started = await admin.post('/admin/rebuild-projections');
    expect(started.status).toBe(202);
    expect(Object.keys(started.body)).toEqual(
      expect.arrayContaining(['state', 'eventsDone', 'eventsTotal', 'eventsPerSecond']),
    );
    // A second start while it runs does not start another one.
    expect((await admin.post('/admin/rebuild-projections')).status).toBe(202);
    const done = await waitUntilFinished();
    expect(done).toMatchObject({ state: 'done', resumedFrom: 0 });
    const [{ n }] = await demo.dataSource.query('SELECT count(*)::int AS n FROM events');
    expect(done.eventsDone).toBe(n);
    expect(done.eventsTotal).toBe(n);

    // Same log, same rows: the lists are unchanged, and so are their tags (a cheap 304 stays right).
    const casesAfter = await admin.get('/cases', { 'if-none-match': cases.headers.get('etag')! });
    expect(casesAfter.status).toBe(304);
    expect((await admin.get('/users', { 'if-none-match': users.headers.get('etag')! })).status).toBe(304);
    expect((await admin.get('/cases')).body).toEqual(cases.body);
    // A command after the swap writes into the new tables and moves the tag on.
    expect((await admin.post('/cases/CA-2024-001/notes', { text: 'after the rebuild' })).status).toBe(201);
    const moved = await admin.get('/cases', { 'if-none-match': cases.headers.get('etag')! });
    expect(moved.status).toBe(200);
    const noted = moved.body.find((item: { id: string }) => item.id === 'CA-2024-001');
    const before = cases.body.find((item: { id: string }) => item.id === 'CA-2024-001');
    expect(noted.noteCount).toBe(before.noteCount + 1);
    expect((await admin.get('/cases/CA-2024-001')).body.notes.at(-1).text).toBe('after the rebuild');
  });

  it('runs one rebuild at a time: in this process they queue, another process holding the lock refuses', async () => {
    const service = demo.lab.app.get(ProjectionRebuildService);
    const [first, second] = await Promise.all([service.run(), service.run()]);
    expect(first.state).toBe('done');
    expect(second.state).toBe('done');

    const rebuilder = new ProjectionRebuilder(demo.dataSource, demo.lab.app.get(EventStore));
    const lock = demo.dataSource.createQueryRunner();
    await lock.connect();
    try {
      // As `npm run replay` in another process would hold it.
      await lock.query('SELECT pg_advisory_lock(7240913350164081002)');
      await expect(rebuilder.run()).rejects.toThrow('Another rebuild of the read models is running.');
      const started = await admin.post('/admin/rebuild-projections');
      expect(started.status).toBe(202);
      expect(await waitUntilFinished()).toMatchObject({
        state: 'failed',
        error: 'Another rebuild of the read models is running.',
      });
      await lock.query('SELECT pg_advisory_unlock(7240913350164081002)');
    } finally {
      await lock.release();
    }
    expect((await rebuilder.run()).state).toBe('done');
  });

  it('starts afresh when shadow tables are left without a checkpoint, and keeps index names and triggers', async () => {
    // A run that died before its first write: shadow tables, no checkpoint.
    await demo.dataSource.query('CREATE TABLE case_view_rebuild (LIKE case_view INCLUDING ALL)');
    await demo.dataSource.query(
      "INSERT INTO case_view_rebuild SELECT * FROM case_view WHERE id = 'CA-2024-001'",
    );
    await demo.dataSource.query(
      `CREATE FUNCTION test_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END; $$`,
    );
    await demo.dataSource.query(
      'CREATE TRIGGER case_view_touch BEFORE UPDATE ON case_view FOR EACH ROW EXECUTE FUNCTION test_touch()',
    );
    const before: { indexname: string; indexdef: string }[] = await demo.dataSource.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('case_view', 'user_view', 'case_ids') ORDER BY 1",
    );
    const result = await new ProjectionRebuilder(demo.dataSource, demo.lab.app.get(EventStore)).run();
    expect(result).toMatchObject({ state: 'done', resumedFrom: 0 });
    expect(
      await demo.dataSource.query(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('case_view', 'user_view', 'case_ids') ORDER BY 1",
      ),
    ).toEqual(before);
    expect(
      await demo.dataSource.query(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'case_view'::regclass AND NOT tgisinternal",
      ),
    ).toEqual([{ tgname: 'case_view_touch' }]);
    const [{ leftovers }] = await demo.dataSource.query(
      "SELECT count(*)::int AS leftovers FROM pg_class WHERE relname LIKE '%\\_rebuild' OR relname LIKE '%\\_old'",
    );
    expect(leftovers).toBe(0);
  });

  it('resumes a crashed rebuild, unless a migration changed a live table since: then it starts afresh', async () => {
    const rebuilder = new ProjectionRebuilder(demo.dataSource, demo.lab.app.get(EventStore));
    const crash = { batchSize: 10, flushIntervalMs: 0, crashAfterWrites: 1 };
    await expect(rebuilder.run(crash)).rejects.toThrow('test hook');
    expect((await rebuilder.run()).resumedFrom).toBe(10);

    await expect(rebuilder.run(crash)).rejects.toThrow('test hook');
    await demo.dataSource.query('ALTER TABLE case_view ADD COLUMN migrated int NOT NULL DEFAULT 7');
    try {
      expect((await rebuilder.run()).resumedFrom).toBe(0);
      const [row] = await demo.dataSource.query("SELECT migrated FROM case_view WHERE id = 'CA-2024-001'");
      expect(row).toEqual({ migrated: 7 });
    } finally {
      await demo.dataSource.query('ALTER TABLE case_view DROP COLUMN migrated');
    }
    expect((await admin.get('/cases/CA-2024-001')).status).toBe(200);
  });
});
