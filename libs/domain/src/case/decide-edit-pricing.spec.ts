import type { Role } from '../permissions/roles.js';
import type { CaseFile } from './case.js';
import { type CaseCommand } from './commands.js';
import { type Decision } from './decision.js';
import { checkPricing } from './input-checks.js';
import type { CaseEventData } from './events.js';
import {
  BY_ROLE,
  E,
  ROLES,
  accepted,
  apply,
  caseAt,
  given,
  managerOnly,
  refused,
  rep,
  run,
} from '../testing/case-fixtures.js';

describe('EditCase (Manager only; editable fields may change, others must be unchanged)', () => {
  const edit = (fields: Record<string, unknown>): CaseCommand => ({ type: 'EditCase', fields });
  const edited = (changes: Record<string, unknown>): Decision =>
    accepted({ type: 'CaseDetailsEdited', data: { changes } } as CaseEventData);
  const state = caseAt('Model Printing');

  it.each<[string, Record<string, unknown>, Decision]>([
    ['patient name, trimmed', { patientName: '  John Roe ' }, edited({ patientName: 'John Roe' })],
    [
      'doctor and clinic names',
      { doctorName: 'Dr. Patel', clinicName: 'Bright Smiles' },
      edited({ doctorName: 'Dr. Patel', clinicName: 'Bright Smiles' }),
    ],
    ['priority', { priority: 'High' }, edited({ priority: 'High' })],
    [
      'treatment plan notes',
      { treatmentPlanNotes: 'Upper only' },
      edited({ treatmentPlanNotes: 'Upper only' }),
    ],
    ['due date', { deliveryDate: '2025-06-01' }, edited({ deliveryDate: '2025-06-01' })],
    ['due date removed', { deliveryDate: '' }, edited({ deliveryDate: null })],
    [
      'simulation video URL, trimmed',
      { simulationVideoUrl: ' https://v.example/1 ' },
      edited({ simulationVideoUrl: 'https://v.example/1' }),
    ],
    [
      'external link',
      { simulationExternalLink: 'http://3d.example/x' },
      edited({ simulationExternalLink: 'http://3d.example/x' }),
    ],
    [
      'only changed fields are recorded',
      { patientName: 'Jane Doe', priority: 'High', clinicName: 'Smile Clinic' },
      edited({ priority: 'High' }),
    ],
    ['nothing changed → no events', { patientName: 'Jane Doe', priority: 'Normal' }, accepted()],
    ['empty edit → no events', {}, accepted()],
    [
      'unchanged workflow fields may be sent',
      { status: 'Model Printing', id: 'CA-2025-123', onHold: false, price: 1200, patientName: 'X' },
      edited({ patientName: 'X' }),
    ],
    ['version and expectedVersion are ignored', { version: 99, expectedVersion: 3 }, accepted()],
    [
      'a changed status',
      { status: 'Completed' },
      refused('invalid', '"status" cannot be changed by Edit Case.'),
    ],
    ['a changed price', { price: 1 }, refused('invalid', '"price" cannot be changed by Edit Case.')],
    ['a changed onHold', { onHold: true }, refused('invalid', '"onHold" cannot be changed by Edit Case.')],
    [
      'a changed assigned doctor',
      { assignedDoctorUsername: 'dr.patel' },
      refused('invalid', '"assignedDoctorUsername" cannot be changed by Edit Case.'),
    ],
    [
      'an unknown field',
      { favouriteColour: 'blue' },
      refused('invalid', '"favouriteColour" cannot be changed by Edit Case.'),
    ],
    ['an empty patient name', { patientName: '  ' }, refused('invalid', 'Patient name is required.')],
    [
      'a priority outside the list',
      { priority: 'Urgent' },
      refused('invalid', 'Priority must be Normal or High.'),
    ],
    [
      'a due date that is not a date',
      { deliveryDate: '31/12/2025' },
      refused('invalid', 'Due date must be a date (YYYY-MM-DD).'),
    ],
    [
      'a non-http link',
      { simulationVideoUrl: 'ftp://v.example/1' },
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'a javascript: link',
      { simulationExternalLink: 'javascript:alert(1)' },
      refused('invalid', 'External Simulation Link must be an http(s) URL.'),
    ],
  ])('%s', (_label, fields, expected) => {
    const decision = run(state, edit(fields));
    if (expected.ok) expect(decision).toEqual(expected);
    else expect(decision).toMatchObject(expected);
  });

  it('reports every problem in the details', () => {
    expect(run(state, edit({ patientName: '', status: 'Completed', priority: 'x' }))).toEqual({
      ok: false,
      rejection: {
        kind: 'invalid',
        message: 'Patient name is required.',
        details: [
          'Patient name is required.',
          '"status" cannot be changed by Edit Case.',
          'Priority must be Normal or High.',
        ],
      },
    });
  });

  it('accepts the whole case sent back with one field changed (PUT /cases/{id})', () => {
    const sent = { ...JSON.parse(JSON.stringify(state)), patientName: 'John Roe' };
    expect(run(state, edit(sent))).toEqual(edited({ patientName: 'John Roe' }));
  });

  it.each(ROLES.filter((role) => role !== 'Manager'))('a %s cannot edit', (role) => {
    expect(run(state, edit({ patientName: 'X' }), BY_ROLE[role])).toEqual(managerOnly);
  });

  it('checks the role before the input', () => {
    expect(run(state, edit({ status: 'Completed' }), rep)).toEqual(managerOnly);
  });

  it('an empty link removes its file entry; a link adds or replaces it', () => {
    const video: CaseFile = {
      name: 'Simulation Video',
      type: 'Simulation Video',
      url: 'https://v.example/1',
      size: 'Link',
    };
    const external: CaseFile = {
      name: 'External Simulation',
      type: 'External Link',
      url: 'https://3d.example/1',
      size: 'Link',
    };
    const stl: CaseFile = { name: 'upper.stl', type: 'STL', url: '/u/upper.stl', size: '1.00 MB' };
    const withLinks = caseAt('Digital Planning');
    const start = given(
      E.created({ files: [stl] }),
      E.approved(),
      E.links('https://v.example/1', 'https://3d.example/1'),
    );
    expect(withLinks.files).toEqual([]);
    expect(start.files).toEqual([stl, video, external]);

    const cleared = apply(start, run(start, edit({ simulationVideoUrl: '' })));
    expect(cleared.simulationVideoUrl).toBe('');
    expect(cleared.files).toEqual([stl, external]);

    const replaced = apply(cleared, run(cleared, edit({ simulationExternalLink: 'https://3d.example/2' })));
    expect(replaced.files).toEqual([stl, { ...external, url: 'https://3d.example/2' }]);

    const renamed = apply(replaced, run(replaced, edit({ patientName: 'John Roe' })));
    expect(renamed.files).toEqual(replaced.files);
    expect(renamed.patientName).toBe('John Roe');
  });

  it('an edit of another field leaves uploaded link-typed files alone', () => {
    const uploaded: CaseFile = {
      name: 'plan.mp4',
      type: 'Simulation Video',
      url: '/u/plan.mp4',
      size: '9.00 MB',
    };
    const start = given(E.created({ files: [uploaded] }));
    const renamed = apply(start, run(start, edit({ patientName: 'John Roe' })));
    expect(renamed.files).toEqual([uploaded]);
  });
});

describe('UpdatePricing (Manager and Representative)', () => {
  const pricing = (price: unknown, upperSheets: unknown, lowerSheets: unknown): CaseCommand => ({
    type: 'UpdatePricing',
    price,
    upperSheets,
    lowerSheets,
  });
  const updated = (price: number | null, upperSheets: number | null, lowerSheets: number | null) =>
    accepted({ type: 'PricingUpdated', data: { price, upperSheets, lowerSheets } });
  const state = caseAt('Digital Planning'); // price 1200, sheets 3 / 2

  it.each<[string, [unknown, unknown, unknown], Decision]>([
    ['numbers', [1500, 20, 18], updated(1500, 20, 18)],
    ['numeric strings', ['1500.50', '20', '18'], updated(1500.5, 20, 18)],
    ['strings with spaces', [' 99.90 ', ' 7 ', '0'], updated(99.9, 7, 0)],
    ["'abc' and '' are absent", ['abc', '', ''], updated(null, null, null)],
    ['null and undefined are absent', [null, undefined, null], updated(null, null, null)],
    ['fractional sheets are absent', [1200, '2.5', 1.5], updated(1200, null, null)],
    ['price rounded to cents', [10.129, 3, 2], updated(10.13, 3, 2)],
    ['zero is a price', [0, 3, 2], updated(0, 3, 2)],
    ['unchanged → no events', [1200, 3, 2], accepted()],
    ['unchanged as strings → no events', ['1200.00', '3', '2'], accepted()],
    ['a negative price', [-1, 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    ['a negative price as text', ['-0.5', 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    ['a price too high', [1_000_001, 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    [
      'negative sheets',
      [1200, -3, 2],
      refused('invalid', 'Sheet counts must be whole numbers between 0 and 200.'),
    ],
    [
      'too many sheets',
      [1200, 3, '201'],
      refused('invalid', 'Sheet counts must be whole numbers between 0 and 200.'),
    ],
  ])('%s', (_label, [price, upper, lower], expected) => {
    expect(run(state, pricing(price, upper, lower))).toEqual(expected);
  });

  it.each<[Role, boolean]>([
    ['Manager', true],
    ['Representative', true],
    ['Designer', false],
    ['Technician', false],
    ['Doctor', false],
  ])('a %s may edit pricing: %s', (role, allowed) => {
    expect(run(state, pricing(1300, 3, 2), BY_ROLE[role])).toEqual(
      allowed
        ? updated(1300, 3, 2)
        : refused('forbidden', 'Only a Manager or a Representative can edit pricing.'),
    );
  });

  it('checkPricing alone gives the same answers', () => {
    expect(checkPricing({ price: '12', upperSheets: 'x' })).toEqual({
      value: { price: 12, upperSheets: null, lowerSheets: null },
    });
  });

  it('stores the values on the case', () => {
    const next = apply(state, run(state, pricing('1500.50', '20', '')));
    expect([next.price, next.upperSheets, next.lowerSheets]).toEqual([1500.5, 20, null]);
  });
});
