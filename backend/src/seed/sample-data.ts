import {
  addDays,
  CASE_STATUSES,
  STATUS_LABELS,
  type CaseCommand,
  type CaseStatus,
  type Role,
} from '@alignerflow/domain';

/** The demo users of product-decisions ("Running it"); all sign in with the password demo. */
export const DEMO_USERS: { username: string; role: Role }[] = [
  { username: 'rep', role: 'Representative' },
  { username: 'designer', role: 'Designer' },
  { username: 'tech', role: 'Technician' },
  { username: 'dr.lee', role: 'Doctor' },
  { username: 'dr.patel', role: 'Doctor' },
];
export const DEMO_PASSWORD = 'demo';

/**
 * One thing a demo user did to a sample case: the command as the API would send it, by whom,
 * and when. ApproveCase names its doctor by username; the seed looks the user up as the
 * approve handler does.
 */
export interface SampleStep {
  caseId: string;
  username: string;
  at: string;
  command: SampleCommand;
}
export type SampleCommand =
  | Exclude<CaseCommand, { type: 'ApproveCase' | 'AdvanceStage' }>
  | { type: 'ApproveCase'; doctorUsername: string }
  /** The lots by number: the seed looks them up in the register as the advance handler does. */
  | { type: 'AdvanceStage'; fromStatus: CaseStatus; lotNumbers?: string[]; machine?: string };

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const LEE = { name: 'Dr. Sarah Lee', username: 'dr.lee' };
const PATEL = { name: 'Dr. Raj Patel', username: 'dr.patel' };
const PLAN = 'Mild crowding on the lower arch; close the upper midline gap.';
const simulation = (id: string, draft = '') =>
  `https://example.com/simulations/${id.toLowerCase()}${draft}.mp4`;

export interface SampleSpec {
  id: string;
  patientName: string;
  doctor: { name: string; username: string };
  clinicName: string;
  status: CaseStatus;
  priority: 'Normal' | 'High';
  price: number;
  sheets: [number, number];
  dueInDays: number;
  /** Who filled in the New Case wizard: a Representative, or the doctor on their own dashboard. */
  createdBy: string;
  /** Days before now at which the current status was entered (steps go back 2 days each from it). */
  enteredDaysAgo: number;
  /** A completed case: the days before today at which its patient began each aligner stage, if any. */
  stageStartsDaysAgo?: number[];
}

/** The lab's materials settings, as the admin saved them: the statement's manufacturer details. */
export const DEMO_MATERIAL_SETTINGS = {
  manufacturerName: 'AlignerFlow Demo Lab',
  manufacturerAddress: '12 Harbour Road\nDublin D02 XY45, Ireland',
  responsiblePerson: 'Maria Keane, Person Responsible for Regulatory Compliance',
};

/** The lots the technician registered (expiring a year and more from the seed). */
export function demoLots(now: Date) {
  const inDays = (days: number) => addDays(now.toISOString(), days);
  return [
    {
      kind: 'resin',
      product: 'Dental model resin V2',
      lotNumber: 'RES-2024-118',
      supplier: 'Formlabs',
      expiresOn: inDays(365),
    },
    {
      kind: 'sheet',
      product: 'Duran PETG 0.75 mm',
      lotNumber: 'PETG-2024-0412',
      supplier: 'Scheu Dental',
      expiresOn: inDays(540),
    },
    {
      kind: 'sheet',
      product: 'Duran PETG 0.75 mm',
      lotNumber: 'PETG-2024-0197',
      supplier: 'Scheu Dental',
      expiresOn: inDays(20),
    },
  ];
}

/** What printing and thermoforming recorded on the sample cases. */
const SAMPLE_MATERIALS: Partial<Record<CaseStatus, { lotNumbers: string[]; machine: string }>> = {
  [STATUS_LABELS.ModelPrinting]: { lotNumbers: ['RES-2024-118'], machine: 'Form 4 #2' },
  [STATUS_LABELS.Thermoforming]: { lotNumbers: ['PETG-2024-0412'], machine: 'Biostar VI' },
};

const SAMPLE_SHIPMENT = { carrier: 'ups', trackingNumber: '1Z999AA10123456784' } as const;

/** The five sample cases of spec section 3, each in the status its story ends in. */
const SAMPLES: SampleSpec[] = [
  {
    id: 'CA-2024-001',
    patientName: 'Emma Thompson',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: STATUS_LABELS.DigitalPlanning,
    priority: 'High',
    price: 1250,
    sheets: [18, 16],
    dueInDays: 10,
    createdBy: 'rep',
    enteredDaysAgo: 2,
  },
  {
    id: 'CA-2024-002',
    patientName: 'James Carter',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: STATUS_LABELS.PendingApproval,
    priority: 'Normal',
    price: 1100,
    sheets: [14, 14],
    dueInDays: 14,
    createdBy: 'dr.patel',
    enteredDaysAgo: 1,
  },
  {
    id: 'CA-2024-003',
    patientName: 'Olivia Martinez',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: STATUS_LABELS.DoctorApproval,
    priority: 'Normal',
    price: 1400,
    sheets: [20, 18],
    dueInDays: 7,
    createdBy: 'rep',
    enteredDaysAgo: 2,
  },
  {
    id: 'CA-2024-004',
    patientName: 'Liam Nguyen',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: STATUS_LABELS.Thermoforming,
    priority: 'High',
    price: 1300,
    sheets: [16, 15],
    dueInDays: -1,
    createdBy: 'rep',
    enteredDaysAgo: 2,
  },
  {
    // Completed early enough that the patient is on the fourth of 20 stages, 15 days each.
    id: 'CA-2024-077',
    patientName: 'Sophia Brown',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: STATUS_LABELS.Completed,
    priority: 'Normal',
    price: 1500,
    sheets: [20, 20],
    dueInDays: -20,
    createdBy: 'rep',
    enteredDaysAgo: 52,
    // The 15-day aligner stages it began, stage 1 first.
    stageStartsDaysAgo: [50, 35, 20, 5],
  },
];

/**
 * The story's days are counted back from today at this hour (UTC), so the lab's work falls in
 * the working hours of Europe and the Americas rather than at whatever hour the demo first started.
 * No step is later than yesterday evening, so the whole story is in the past at any hour of today.
 */
const STORY_HOUR_UTC = 13;

/**
 * What happened to each sample case, oldest first across all of them: created, approved by the
 * admin with a doctor, worked stage by stage by the role that owns each stage, approved by the
 * doctor, noted, QR-scanned and staged. Each status before the current one was left 2 days after
 * it was entered, going back from the current one (spec section 3); the approval completes
 * Pending Approval and Scan Received together, as it does in the product.
 */
export function sampleStory(now = new Date(), extra: SampleSpec[] = []): SampleStep[] {
  const today = storyToday(now);
  const steps = [...SAMPLES, ...extra].flatMap((sample) => caseStory(sample, now, today));
  // Stable: one case's steps keep their order when another case's step has the same time.
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** The story's today at STORY_HOUR_UTC, in ms. */
export function storyToday(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), STORY_HOUR_UTC);
}

function caseStory(sample: SampleSpec, now: Date, today: number): SampleStep[] {
  const steps: SampleStep[] = [];
  let lastAt = -Infinity;
  /** `daysAgo` days before today, plus `hours`: the steps of a day in the order they happened. */
  const add = (daysAgo: number, username: string, command: SampleCommand, hours = 0) => {
    const at = today - daysAgo * DAY_MS + hours * HOUR_MS;
    if (at <= lastAt || at >= now.getTime()) throw new Error(`${sample.id}: steps out of order`);
    lastAt = at;
    steps.push({ caseId: sample.id, username, at: new Date(at).toISOString(), command });
  };
  const order = CASE_STATUSES;
  const current = order.indexOf(sample.status);
  /** When the case entered status `index`: the current one `enteredDaysAgo`, each earlier 2 days before. */
  const entered = (index: number) => sample.enteredDaysAgo + 2 * (current - index);
  const reached = (status: CaseStatus) => current >= order.indexOf(status);
  const doctor = sample.doctor.username;

  add(current === 0 ? sample.enteredDaysAgo : entered(1) + 1, sample.createdBy, {
    type: 'CreateCase',
    caseId: sample.id,
    input: {
      patientName: sample.patientName,
      doctorName: sample.doctor.name,
      clinicName: sample.clinicName,
      priority: sample.priority,
      deliveryDate: addDays(now.toISOString(), sample.dueInDays),
      treatmentPlanNotes: PLAN,
      price: sample.price,
      upperSheets: sample.sheets[0],
      lowerSheets: sample.sheets[1],
    },
  });
  if (!reached(STATUS_LABELS.DigitalPlanning)) return steps;
  add(entered(2), 'admin', { type: 'ApproveCase', doctorUsername: doctor });

  if (sample.status === STATUS_LABELS.DigitalPlanning) {
    add(
      entered(2),
      'designer',
      {
        type: 'AddNote',
        text: 'Setup started from the intraoral scans; the upper midline gap measures 2 mm.',
      },
      3,
    );
    return steps;
  }

  // Digital Planning: the designer's simulation, then the doctor's review.
  const links = (video: string) => ({
    type: 'SaveSimulationLinks' as const,
    simulationVideoUrl: video,
    simulationExternalLink: '',
  });
  if (sample.status === STATUS_LABELS.DoctorApproval) {
    // A first plan sent back by the doctor, then the revised one she now has to approve.
    add(entered(2), 'designer', links(simulation(sample.id, '-draft')), 4);
    add(entered(2), 'designer', { type: 'AdvanceStage', fromStatus: STATUS_LABELS.DigitalPlanning }, 6);
    add(entered(2) - 1, doctor, {
      type: 'RequestChanges',
      comment: 'Please stage the lower incisor movement over two more aligners.',
    });
    add(entered(3), 'designer', links(simulation(sample.id)), -3);
    add(entered(3), 'designer', { type: 'AdvanceStage', fromStatus: STATUS_LABELS.DigitalPlanning });
    return steps;
  }
  add(entered(3), 'designer', links(simulation(sample.id)), -4);
  add(entered(3), 'designer', { type: 'AdvanceStage', fromStatus: STATUS_LABELS.DigitalPlanning });
  add(entered(4), doctor, { type: 'ApproveTreatmentPlan' });

  // Manufacturing: the technician takes each stage by its QR code and completes it, recording
  // the material lot and the machine of printing and thermoforming.
  const lastTechStage = Math.min(current, order.indexOf(STATUS_LABELS.QualityCheck));
  for (let index = order.indexOf(STATUS_LABELS.ModelPrinting); index <= lastTechStage; index++) {
    add(entered(index), 'tech', { type: 'GenerateCaseQr' }, 2);
    if (index === current) break;
    add(entered(index + 1), 'tech', {
      type: 'AdvanceStage',
      fromStatus: order[index],
      ...(SAMPLE_MATERIALS[order[index]] ?? {}),
    });
  }
  if (sample.status === STATUS_LABELS.Thermoforming) {
    add(entered(current) - 1, 'tech', {
      type: 'AddNote',
      text: 'Upper arch sheets formed; the lower arch follows once the printer is free.',
    });
    return steps;
  }

  // Packaging, delivery (shipped, then received by the doctor) and the aligners worn since.
  for (let index = order.indexOf(STATUS_LABELS.PackagingLabeling); index < current; index++) {
    if (order[index] === STATUS_LABELS.PackagingLabeling)
      add(entered(index + 1), 'rep', { type: 'RecordShipment', ...SAMPLE_SHIPMENT }, -1);
    if (order[index] === STATUS_LABELS.Delivery)
      add(entered(index + 1), doctor, { type: 'MarkReceived' }, -1);
    add(entered(index + 1), 'rep', { type: 'AdvanceStage', fromStatus: order[index] });
  }
  (sample.stageStartsDaysAgo ?? []).forEach((daysAgo, index) => {
    const stageNumber = index + 1;
    add(
      daysAgo,
      doctor,
      index === 0
        ? { type: 'ChangeAlignerStage', stageNumber, action: 'start' }
        : { type: 'ScanAlignerStage', stageNumber },
    );
    if (index === 0)
      add(daysAgo, doctor, { type: 'AddNote', text: 'First aligners fitted; fit and comfort are good.' }, 1);
  });
  return steps;
}
