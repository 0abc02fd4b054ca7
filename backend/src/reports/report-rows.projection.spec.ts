import { addStageMs, reportCaseRow, stageSlot } from './report-rows.projection';

const interval = (status: string, enteredAt: string, leftAt: string) => ({
  status: status as never,
  enteredAt,
  leftAt,
});

describe('report rows', () => {
  it('numbers the stages of the manufacturing order from 1, Completed and Rejected outside', () => {
    expect(stageSlot('Pending Approval')).toBe(1);
    expect(stageSlot('Digital Planning')).toBe(3);
    expect(stageSlot('Delivery to Doctor')).toBe(10);
    expect(stageSlot('Completed')).toBe(0);
    expect(stageSlot('Rejected')).toBe(0);
  });

  it('adds each visit of a status to its milliseconds, leaving unvisited statuses empty', () => {
    const planned = addStageMs(null, [
      interval('Digital Planning', '2026-03-02T09:00:00Z', '2026-03-02T19:00:00Z'),
    ]);
    expect(planned).toEqual([null, null, 36_000_000]);
    const again = addStageMs(planned, [
      interval('Doctor Approval', '2026-03-02T19:00:00Z', '2026-03-03T01:00:00Z'),
      interval('Digital Planning', '2026-03-03T01:00:00Z', '2026-03-03T02:00:00Z'),
    ]);
    expect(again).toEqual([null, null, 39_600_000, 21_600_000]);
    // A status outside the order adds nothing.
    expect(addStageMs(again, [interval('Completed', '2026-03-04T00:00:00Z', '2026-03-05T00:00:00Z')])).toBe(
      again,
    );
  });

  it('writes the stage times as a PostgreSQL array text, null when none', () => {
    const state = {
      id: 'CA-2026-100',
      patientName: 'P',
      doctorName: 'D',
      clinicName: 'C',
      createdDate: '2026-03-01T00:00:00.000Z',
      deliveryDate: '2026-03-10',
      status: 'Completed',
      statusEnteredAt: '2026-03-05T00:00:00.000Z',
      version: 9,
    } as never;
    const row = reportCaseRow(state, [null, 5, null], '42');
    expect(row[7]).toBe('2026-03-05T00:00:00.000Z');
    expect(row[12]).toBe('{NULL,5,NULL}');
    expect(reportCaseRow(state, null, '42')[12]).toBeNull();
  });
});
