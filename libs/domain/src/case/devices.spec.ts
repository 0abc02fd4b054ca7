import { deviceRecord, hasPassedQualityCheck, lotsOf, patientCode } from './device-record.js';
import { DEFAULT_MATERIAL_SETTINGS } from '../materials/settings.js';
import { DEVICE_TEXTS } from '../materials/texts.js';
import type { CaseEventData } from './events.js';
import type { LotUse } from './commands.js';
import { isAtRisk, isOverdue } from './at-risk.js';
import { shipByDate } from '../materials/ship-by.js';
import {
  E,
  NOW,
  accepted,
  apply,
  caseAt,
  drLee,
  drPatel,
  designer,
  manager,
  refused,
  rep,
  run,
  tech,
} from '../testing/case-fixtures.js';

const lot = (lotNumber: string, expiresOn: string | null = null): LotUse => ({
  lotNumber,
  lot: { lotNumber, expiresOn },
});
const unknown = (lotNumber: string): LotUse => ({ lotNumber, lot: null });
const advance = (fromStatus: string, more: object = {}) => ({
  type: 'AdvanceStage' as const,
  fromStatus,
  ...more,
});
const shipped = (carrier = 'ups', trackingNumber = '1Z999', shippedAt = NOW): CaseEventData =>
  ({ type: 'ShipmentRecorded', data: { carrier, trackingNumber, shippedAt } }) as CaseEventData;

describe('completing a stage with material lots', () => {
  it('records the lots and the machine on the StageAdvanced event', () => {
    const decision = run(
      caseAt('Thermoforming'),
      advance('Thermoforming', { lots: [lot('PETG-7'), lot('PETG-7')], machine: ' Biostar 2 ' }),
      tech,
    );
    expect(decision).toEqual(
      accepted({
        type: 'StageAdvanced',
        data: { from: 'Thermoforming', to: 'Trimming & Polishing', lots: ['PETG-7'], machine: 'Biostar 2' },
      }),
    );
  });

  it('keeps who completed each stage, when, and with which lots for the device record', () => {
    const state = caseAt('Model Printing');
    const after = apply(state, run(state, advance('Model Printing', { lots: [lot('RES-1')] }), tech), tech);
    expect(after.stageRecords?.at(-1)).toEqual({
      status: 'Model Printing',
      completedAt: NOW,
      by: 'tech',
      lots: ['RES-1'],
      machine: null,
    });
    expect(lotsOf(after)).toEqual(['RES-1']);
  });

  it('refuses an unknown lot with 400', () => {
    expect(
      run(caseAt('Model Printing'), advance('Model Printing', { lots: [unknown('NOPE')] }), tech),
    ).toEqual(refused('invalid', 'Unknown lot NOPE.'));
  });

  it('refuses a lot past its expiry date, and takes one expiring today', () => {
    expect(
      run(caseAt('Model Printing'), advance('Model Printing', { lots: [lot('OLD', '2025-03-19')] }), tech),
    ).toEqual(refused('invalid', 'Lot OLD expired on 2025-03-19.'));
    expect(
      run(caseAt('Model Printing'), advance('Model Printing', { lots: [lot('TODAY', '2025-03-20')] }), tech)
        .ok,
    ).toBe(true);
  });

  it.each(['Model Printing', 'Thermoforming'] as const)(
    'with requireLots, refuses to complete %s without a lot (409)',
    (status) => {
      expect(run(caseAt(status), advance(status, { requireLots: true }), tech)).toEqual(
        refused('conflict', DEVICE_TEXTS.lotRequired),
      );
    },
  );

  it('with requireLots, other stages need no lot', () => {
    expect(
      run(caseAt('Trimming & Polishing'), advance('Trimming & Polishing', { requireLots: true }), tech).ok,
    ).toBe(true);
  });

  it('checks the stage and the role before the lots', () => {
    expect(
      run(caseAt('Model Printing'), advance('Model Printing', { lots: [unknown('X')] }), designer),
    ).toEqual(refused('forbidden', 'This stage can only be completed by: Technician or Manager'));
  });
});

describe('shipping', () => {
  const ship = { type: 'RecordShipment' as const, carrier: 'fedex', trackingNumber: '7712 3456' };

  it.each(['Packaging & Labeling', 'Delivery to Doctor'] as const)('records a shipment at %s', (status) => {
    expect(run(caseAt(status), ship, rep)).toEqual(
      accepted({
        type: 'ShipmentRecorded',
        data: { carrier: 'fedex', trackingNumber: '7712 3456', shippedAt: NOW },
      }),
    );
  });

  it.each(['Quality Check', 'Completed', 'Model Printing'] as const)(
    'refuses to ship from %s (409)',
    (status) => {
      expect(run(caseAt(status), ship, rep)).toEqual(refused('conflict', DEVICE_TEXTS.shipStatus));
    },
  );

  it('lets a Technician ship but not a Designer or the doctor', () => {
    expect(run(caseAt('Packaging & Labeling'), ship, tech).ok).toBe(true);
    expect(run(caseAt('Packaging & Labeling'), ship, designer)).toEqual(
      refused('forbidden', DEVICE_TEXTS.shipRoles),
    );
    expect(run(caseAt('Packaging & Labeling'), ship, drLee)).toEqual(
      refused('forbidden', DEVICE_TEXTS.shipRoles),
    );
  });

  it('checks the carrier, the tracking number and the date', () => {
    const at = caseAt('Packaging & Labeling');
    expect(run(at, { ...ship, carrier: 'pigeon' }, rep)).toEqual(refused('invalid', DEVICE_TEXTS.carrier));
    expect(run(at, { ...ship, trackingNumber: '  ' }, rep)).toEqual(
      refused('invalid', DEVICE_TEXTS.trackingNumberRequired),
    );
    expect(run(at, { ...ship, trackingNumber: '=HYPERLINK()' }, rep)).toEqual(
      refused('invalid', DEVICE_TEXTS.trackingNumberChars),
    );
    expect(run(at, { ...ship, shippedAt: 'yesterday' }, rep)).toEqual(
      refused('invalid', DEVICE_TEXTS.shippedAt),
    );
  });

  it('gives the carrier tracking link, none for other carriers', () => {
    const after = caseAt('Delivery to Doctor', shipped('dhl', 'JD01'), shipped('other', 'VAN-3'));
    expect(after.shipments?.map((item) => item.trackingUrl)).toEqual([
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD01',
      null,
    ]);
  });
});

describe('received', () => {
  const received = { type: 'MarkReceived' as const };

  it("is the case's doctor's or a Manager's, at Delivery to Doctor", () => {
    expect(run(caseAt('Delivery to Doctor'), received, drLee)).toEqual(
      accepted({ type: 'CaseReceived', data: {} }),
    );
    expect(run(caseAt('Delivery to Doctor'), received, manager).ok).toBe(true);
    expect(run(caseAt('Delivery to Doctor'), received, rep)).toEqual(
      refused('forbidden', DEVICE_TEXTS.receivedRoles),
    );
    expect(run(caseAt('Delivery to Doctor'), received, drPatel)).toEqual(
      refused('not_found', 'Case not found.'),
    );
  });

  it('refuses any other status (409), and a second press changes nothing', () => {
    expect(run(caseAt('Packaging & Labeling'), received, drLee)).toEqual(
      refused('conflict', DEVICE_TEXTS.receivedStatus),
    );
    const done = caseAt('Delivery to Doctor', [{ type: 'CaseReceived', data: {} }, drLee]);
    expect(done.receivedAt).toBeDefined();
    expect(run(done, received, drLee)).toEqual(accepted());
  });
});

describe('the device record', () => {
  it('names the patient by the case id and initials only', () => {
    expect(patientCode({ id: 'CA-2025-123', patientName: 'Jane van Doe' })).toBe('CA-2025-123 (J.v.D.)');
    expect(patientCode({ id: 'CA-2025-123', patientName: '' })).toBe('CA-2025-123');
    expect(
      patientCode({ id: 'CA-2025-123', patientName: 'Erased patient', erasedAt: '2026-01-01T00:00:00Z' }),
    ).toBe('CA-2025-123');
  });

  it('holds prescriber, manufacturer, device, stages, quality check and shipments', () => {
    const item = caseAt('Delivery to Doctor', shipped());
    const record = deviceRecord(item, {
      ...DEFAULT_MATERIAL_SETTINGS,
      manufacturerName: 'Lab',
      manufacturerAddress: '1 Way',
    });
    expect(record).toMatchObject({
      caseId: 'CA-2025-123',
      patientCode: 'CA-2025-123 (J.D.)',
      prescriber: { name: 'Dr. Lee', clinic: 'Smile Clinic' },
      manufacturer: { name: 'Lab', address: '1 Way' },
      device: { type: 'Clear Aligner', upperSheets: 3, lowerSheets: 2, steps: 3 },
      qualityCheck: { by: 'admin' },
    });
    expect(record.stages.map((stage) => stage.status)).toContain('Quality Check');
    expect(record.shipments).toHaveLength(1);
  });

  it('is past Quality Check only from Packaging & Labeling on', () => {
    expect(hasPassedQualityCheck(caseAt('Quality Check'))).toBe(false);
    expect(hasPassedQualityCheck(caseAt('Packaging & Labeling'))).toBe(true);
    expect(hasPassedQualityCheck(caseAt('Completed'))).toBe(true);
    expect(deviceRecord(caseAt('Quality Check'), DEFAULT_MATERIAL_SETTINGS).qualityCheck).toBeNull();
  });
});

describe('ship-by dates', () => {
  it('moves the due date back by the transit days until the case has shipped', () => {
    expect(shipByDate({ deliveryDate: '2025-03-24' }, 3)).toBe('2025-03-21');
    expect(shipByDate({ deliveryDate: '2025-03-24' }, 0)).toBe('2025-03-24');
    expect(
      shipByDate(
        { deliveryDate: '2025-03-24', shipments: caseAt('Delivery to Doctor', shipped()).shipments },
        3,
      ),
    ).toBe('2025-03-24');
  });

  it('makes a case at risk and overdue by its ship-by date', () => {
    const item = caseAt('Thermoforming', E.edited({ deliveryDate: '2025-03-26' }));
    const now = new Date('2025-03-20T10:00:00');
    expect(isAtRisk(item, now, 2, 0)).toBe(false);
    expect(isAtRisk(item, now, 2, 5)).toBe(true);
    expect(isOverdue(item, now, 5)).toBe(false);
    expect(isOverdue(item, now, 7)).toBe(true);
  });
});
