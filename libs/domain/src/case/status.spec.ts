import {
  ALL_CASE_STATUSES,
  CASE_STATUSES,
  isActiveStatus,
  nextStatus,
  ON_HOLD_COLOUR,
  ON_HOLD_LABEL,
  parseStatus,
  STATUS_LABELS,
  statusBadgeLabel,
  statusColour,
  statusIndex,
  statusKeyOf,
  UNKNOWN_STATUS_COLOUR,
  WORKFLOW_ORDER,
  type CaseStatus,
} from './status.js';

/** Spec section 4: display name, internal name and colour, in manufacturing order. */
const SPEC_STATUSES: [display: CaseStatus, internal: string, colour: string][] = [
  ['Pending Approval', 'PendingApproval', 'red'],
  ['Scan Received', 'ScanReceived', 'yellow'],
  ['Digital Planning', 'DigitalPlanning', 'blue'],
  ['Doctor Approval', 'DoctorApproval', 'yellow'],
  ['Model Printing', 'ModelPrinting', 'gray'],
  ['Thermoforming', 'Thermoforming', 'green'],
  ['Trimming & Polishing', 'TrimmingPolishing', 'sky'],
  ['Quality Check', 'QualityCheck', 'pink'],
  ['Packaging & Labeling', 'PackagingLabeling', 'lightgreen'],
  ['Delivery to Doctor', 'Delivery', 'indigo'],
  ['Completed', 'Completed', 'emerald'],
];

describe('status order and names (spec section 4)', () => {
  it('lists the eleven workflow statuses in manufacturing order by display name', () => {
    expect(CASE_STATUSES).toEqual(SPEC_STATUSES.map(([display]) => display));
  });

  it('lists the internal names in the same order', () => {
    expect([...WORKFLOW_ORDER]).toEqual(SPEC_STATUSES.map(([, internal]) => internal));
  });

  it('keeps Rejected outside the manufacturing order but among all statuses (product decisions)', () => {
    expect(CASE_STATUSES).not.toContain('Rejected');
    expect(ALL_CASE_STATUSES).toEqual([...CASE_STATUSES, 'Rejected']);
    expect(STATUS_LABELS.Rejected).toBe('Rejected');
  });

  it.each(SPEC_STATUSES.map(([display, internal], index) => [internal, display, index] as const))(
    'internal name %s is shown as "%s" at index %i',
    (internal, display, index) => {
      expect(STATUS_LABELS[internal as keyof typeof STATUS_LABELS]).toBe(display);
      expect(statusIndex(display)).toBe(index);
    },
  );

  it('gives Rejected no index in the manufacturing order', () => {
    expect(statusIndex('Rejected')).toBe(-1);
  });
});

describe('parseStatus accepts display names, internal names and both readings of Delivery', () => {
  it.each<[string, CaseStatus | undefined]>([
    ...SPEC_STATUSES.map(([display]) => [display, display] as [string, CaseStatus]),
    ...SPEC_STATUSES.map(([display, internal]) => [internal, display] as [string, CaseStatus]),
    ['Delivery', 'Delivery to Doctor'],
    ['delivery', 'Delivery to Doctor'],
    ['Delivery to Doctor', 'Delivery to Doctor'],
    ['DELIVERY TO DOCTOR', 'Delivery to Doctor'],
    ['trimming & polishing', 'Trimming & Polishing'],
    ['trimmingpolishing', 'Trimming & Polishing'],
    ['  Quality Check  ', 'Quality Check'],
    ['Rejected', 'Rejected'],
    ['rejected', 'Rejected'],
    ['On Hold', undefined],
    ['Trimming and Polishing', undefined],
    ['Design', undefined],
    ['', undefined],
    ['   ', undefined],
  ])('parseStatus(%j) → %j', (input, expected) => {
    expect(parseStatus(input)).toBe(expected);
  });

  it.each<[string, string | undefined]>([
    ['Delivery', 'Delivery'],
    ['Delivery to Doctor', 'Delivery'],
    ['Packaging & Labeling', 'PackagingLabeling'],
    ['Rejected', 'Rejected'],
    ['nonsense', undefined],
  ])('statusKeyOf(%j) → %j', (input, expected) => {
    expect(statusKeyOf(input)).toBe(expected);
  });

  it('never throws on a non-string (as a JSON body may carry)', () => {
    expect(parseStatus(42 as unknown as string)).toBeUndefined();
    expect(parseStatus(null as unknown as string)).toBeUndefined();
  });
});

describe('status colours (spec section 4)', () => {
  it.each(SPEC_STATUSES.map(([display, , colour]) => [display, colour]))('%s is %s', (display, colour) => {
    expect(statusColour(display)).toBe(colour);
    expect(statusColour(display, false)).toBe(colour);
  });

  it.each(SPEC_STATUSES.map(([, internal, colour]) => [internal, colour]))(
    'the internal name %s is %s too',
    (internal, colour) => {
      expect(statusColour(internal)).toBe(colour);
    },
  );

  it.each([...ALL_CASE_STATUSES, 'Unknown status', ''])('a held case at %j is orange', (status) => {
    expect(statusColour(status, true)).toBe('orange');
    expect(ON_HOLD_COLOUR).toBe('orange');
  });

  it.each(['Unknown status', '', 'On Hold', 'Design'])('an unknown status %j is gray', (status) => {
    expect(statusColour(status)).toBe('gray');
    expect(UNKNOWN_STATUS_COLOUR).toBe('gray');
  });

  it('Rejected is gray (product decisions)', () => {
    expect(statusColour('Rejected')).toBe('gray');
  });

  it('Delivery is indigo under both readings', () => {
    expect(statusColour('Delivery')).toBe('indigo');
    expect(statusColour('Delivery to Doctor')).toBe('indigo');
  });
});

describe('status badge label', () => {
  it.each<[string, boolean, string]>([
    ['Digital Planning', false, 'Digital Planning'],
    ['Digital Planning', true, 'On Hold'],
    ['Completed', true, 'On Hold'],
    ['Rejected', false, 'Rejected'],
  ])('%s held=%s shows "%s"', (status, onHold, label) => {
    expect(statusBadgeLabel(status, onHold)).toBe(label);
  });

  it('defaults to not held', () => {
    expect(statusBadgeLabel('Quality Check')).toBe('Quality Check');
    expect(ON_HOLD_LABEL).toBe('On Hold');
  });
});

describe('nextStatus', () => {
  it.each<[CaseStatus, CaseStatus | undefined]>([
    ...CASE_STATUSES.slice(0, -1).map(
      (status, index) => [status, CASE_STATUSES[index + 1]] as [CaseStatus, CaseStatus],
    ),
    ['Completed', undefined],
    ['Rejected', undefined],
  ])('after %s comes %j', (status, next) => {
    expect(nextStatus(status)).toBe(next);
  });
});

describe('isActiveStatus: neither Completed nor Rejected', () => {
  it.each<[CaseStatus, boolean]>([
    ...CASE_STATUSES.slice(0, -1).map((status) => [status, true] as [CaseStatus, boolean]),
    ['Completed', false],
    ['Rejected', false],
  ])('%s active=%s', (status, active) => {
    expect(isActiveStatus(status)).toBe(active);
  });
});
