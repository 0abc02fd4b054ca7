import type { Lot, MaterialSettings } from '@alignerflow/domain';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

describe('backup and restore carry the materials', () => {
  let demo: TestApp, empty: TestApp;
  let demoAdmin: ApiClient, emptyAdmin: ApiClient;
  const PASSWORD = 'lots-and-settings-restored-42';

  beforeAll(async () => {
    [demo, empty] = await Promise.all([
      startTestApp(),
      startTestApp({ DEMO_DATA: '0', ADMIN_PASSWORD: PASSWORD }),
    ]);
    [demoAdmin, emptyAdmin] = await Promise.all([demo.login('admin'), empty.login('admin', PASSWORD)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([demo?.close(), empty?.close()]);
  });

  it("moves the lots register and the lab's settings to another installation", async () => {
    expect((await demoAdmin.put('/materials/settings', { transitDays: 3, requireLots: true })).status).toBe(
      200,
    );
    const backup = await demoAdmin.get('/backup');
    expect(backup.status).toBe(200);
    expect(backup.body.materials.lots.map((lot: Lot) => lot.lotNumber)).toEqual([
      'RES-2024-118',
      'PETG-2024-0412',
      'PETG-2024-0197',
    ]);

    const restored = await emptyAdmin.post('/restore', backup.body);
    expect(restored.status).toBe(200);
    const lots = (await emptyAdmin.get('/materials/lots')).body as Lot[];
    expect(lots.map((lot) => lot.lotNumber).sort()).toEqual([
      'PETG-2024-0197',
      'PETG-2024-0412',
      'RES-2024-118',
    ]);
    expect((await emptyAdmin.get('/materials/settings')).body).toMatchObject<Partial<MaterialSettings>>({
      transitDays: 3,
      requireLots: true,
      manufacturerName: 'AlignerFlow Demo Lab',
    });
    // The restored case keeps its device record: its lots went into it and its recall finds it.
    const recall = (await emptyAdmin.get('/materials/lots/RES-2024-118/cases')).body as { caseId: string }[];
    // The sample cases printed with it: CA-2024-004, CA-2024-077 and the demo's billing cases.
    expect(recall.map((row) => row.caseId).sort()).toEqual([
      'CA-2024-004',
      'CA-2024-077',
      'CA-2024-101',
      'CA-2024-102',
      'CA-2024-103',
      'CA-2024-104',
    ]);
    expect((await emptyAdmin.get('/cases/CA-2024-077')).body.shipments).toHaveLength(1);

    // Again: nothing is registered twice.
    expect((await emptyAdmin.post('/restore', backup.body)).status).toBe(200);
    expect((await emptyAdmin.get('/materials/lots')).body).toHaveLength(3);
  });

  it('refuses a bad lot in the file and changes nothing', async () => {
    const backup = (await demoAdmin.get('/backup')).body;
    const before = (await emptyAdmin.get('/materials/lots')).body;
    const bad = {
      ...backup,
      materials: { ...backup.materials, lots: [{ lotNumber: 'X-1', kind: 'glue', product: 'Glue' }] },
    };
    expect(await emptyAdmin.post('/restore', bad)).toMatchObject({
      status: 400,
      body: { error: 'Invalid lot at index 0: Kind must be sheet, resin or other.' },
    });
    expect((await emptyAdmin.get('/materials/lots')).body).toEqual(before);
  });
});
