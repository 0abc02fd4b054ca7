import { useDemoAdmin } from './support/demo-users';

/**
 * What a command writes beside its events (backend/src/cases/case-command.service.ts): the rows
 * its events change, and no others. A note adds its case_notes row and updates the case_view row
 * in place (its document and indexed columns as they were: a HOT update), and leaves the case's
 * report row alone.
 */
describe('the rows a command writes', () => {
  const demo = useDemoAdmin();
  const { admin } = demo;

  const hotUpdates = async (): Promise<number> => {
    const [{ hot }] = await demo.dataSource.query(
      `SELECT n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'case_view'`,
    );
    return hot;
  };

  it('adds a note without rewriting the report row or the case document', async () => {
    const created = await admin.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const reportRow = () =>
      demo.dataSource
        .query(
          'SELECT xmin::text AS xmin, version, last_position::text AS position FROM report_cases WHERE id = $1',
          [id],
        )
        .then((rows: unknown[]) => rows[0]);
    const before = await reportRow();
    const hotBefore = await hotUpdates();
    for (const text of ['one', 'two', 'three'])
      expect((await admin.post(`/cases/${id}/notes`, { text })).status).toBe(201);

    expect(await reportRow()).toEqual(before);
    const [row] = await demo.dataSource.query(
      'SELECT version, note_count, data ? $2 AS has_version FROM case_view WHERE id = $1',
      [id, 'version'],
    );
    // The creation's note, then the three.
    expect(row).toEqual({ version: 4, note_count: 4, has_version: false });
    const { body } = await admin.get(`/cases/${id}`);
    expect(body.version).toBe(4);
    expect(body.notes.slice(1).map((note: { text: string }) => note.text)).toEqual(['one', 'two', 'three']);
    // In place: before migration 045 no update of case_view could be (last_position was indexed).
    // A page may still lack the room for one, so at least one of the three. The API process
    // reports its table statistics when it is idle (about once a second).
    const deadline = Date.now() + 20_000;
    while ((await hotUpdates()) === hotBefore && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await hotUpdates()).toBeGreaterThan(hotBefore);
  });

  it('rewrites the report row when a command changes what it holds', async () => {
    const id = (await admin.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' })).body.id;
    await admin.post(`/cases/${id}/notes`, { text: 'first' });
    expect((await admin.delete(`/cases/${id}`)).status).toBeLessThan(300);
    const [report] = await demo.dataSource.query('SELECT deleted, version FROM report_cases WHERE id = $1', [
      id,
    ]);
    expect(report).toEqual({ deleted: true, version: 3 });
  });
});
