import { randomBytes } from 'node:crypto';
import type { RecordedEvent, StreamAppend } from '../backend/src/event-store/event-types';
import { CaseEventCipher } from '../backend/src/event-store/encryption/case-event-cipher';
import type { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import { recordFigure } from './support/report';

/**
 * The CPU the per-case encryption adds to the write and read paths (backend/src/patient-data), in
 * this process, keys cached (the steady state): sealing the events of an append, and opening
 * them on a read (data read, so the lazy decryption runs). Beside it, JSON.stringify of the same
 * events, which every append pays anyway. Run: npx jest -c bench/jest.config.js bench/patient-data.bench.ts
 */
const BENCH = 'bench/patient-data.bench.ts';
const CASES = 2_000;
const ROUNDS = 5;

const keys = new Map(Array.from({ length: CASES }, (_, i) => [`CA-2030-${10_000 + i}`, randomBytes(32)]));
const keyring = {
  keysFor: async (ids: Iterable<string>) => new Map([...ids].map((id) => [id, keys.get(id)!])),
  existingKeys: async (ids: Iterable<string>) => new Map([...ids].map((id) => [id, keys.get(id) ?? null])),
} as unknown as CaseKeys;

function appends(): StreamAppend[] {
  return [...keys.keys()].map((id) => ({
    streamId: `case-${id}`,
    expectedVersion: 0,
    metadata: { actor: { username: 'admin', role: 'Manager' }, correlationId: 'bench' },
    events: [
      {
        type: 'CaseCreated',
        data: {
          id,
          patientName: 'Jordan Example',
          doctorName: 'Dr. Lee',
          clinicName: 'Smile Clinic',
          priority: 'Normal',
          deliveryDate: null,
          treatmentPlanNotes: 'Crowding of the lower arch, mild overjet.',
          assignedDoctorUsername: 'dr.lee',
          files: [{ name: 'upper.stl', type: 'STL', url: '/api/files/x/upper.stl', size: '2.41 MB' }],
          price: 1200,
          upperSheets: 20,
          lowerSheets: 18,
          fee: null,
        },
      },
      { type: 'NoteAdded', data: { text: 'Scan checked, margins clear.' } },
      { type: 'StageAdvanced', data: { from: 'Model Printing', to: 'Thermoforming' } },
    ],
  }));
}

/**
 * This process's CPU time, not the wall clock: on a shared machine the wall clock also counts
 * the time other processes held the core.
 */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

it('measures sealing and opening per event', async () => {
  const cipher = new CaseEventCipher(keyring);
  const input = appends();
  const events = input.length * 3;
  let [seal, open, json] = [0, 0, 0];
  for (let round = 0; round < ROUNDS; round++) {
    let started = cpuMicros();
    const sealed = await cipher.seal(input);
    seal += cpuMicros() - started;

    started = cpuMicros();
    for (const append of input) for (const event of append.events) JSON.stringify(event.data);
    json += cpuMicros() - started;

    const stored: RecordedEvent[] = sealed.flatMap((append) =>
      append.events.map((event, index) => ({
        position: String(index),
        transactionId: '1',
        streamId: append.streamId,
        version: index + 1,
        type: event.type,
        schemaVersion: 1,
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: append.metadata,
        recordedAt: '2026-01-01T00:00:00.000Z',
      })),
    );
    started = cpuMicros();
    await cipher.open(stored);
    for (const event of stored) void event.data.text;
    open += cpuMicros() - started;
    expect(stored[1].data).toEqual({ text: 'Scan checked, margins clear.' });
  }
  const perEvent = (micros: number) => (micros / ROUNDS / events).toFixed(1);
  recordFigure({
    id: 'patient-data-cipher',
    figure: `Per-case encryption, CPU per event (${events} events of ${CASES} cases: CaseCreated, NoteAdded, StageAdvanced; keys cached)`,
    measured: `seal ${perEvent(seal)} µs, open ${perEvent(open)} µs; JSON.stringify of the same data ${perEvent(json)} µs`,
    target: '—',
    bench: BENCH,
  });
});
