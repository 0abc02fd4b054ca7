import {
  addDays,
  CASE_STATUSES,
  CASE_TEXTS,
  DEFAULT_ASSIGNEE,
  DEFAULT_STAGE_WEAR_DAYS,
  statusIndex,
  type Case,
  type CaseStatus,
  type Priority,
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

const DAY_MS = 24 * 60 * 60 * 1000;

interface SampleSpec {
  id: string;
  patientName: string;
  doctor: { name: string; username: string };
  clinicName: string;
  status: CaseStatus;
  priority: Priority;
  price: number;
  sheets: [number, number];
  dueInDays: number;
  technician?: string;
  simulationVideoUrl?: string;
  stagesDone?: number;
}

const LEE = { name: 'Dr. Sarah Lee', username: 'dr.lee' };
const PATEL = { name: 'Dr. Raj Patel', username: 'dr.patel' };

const SAMPLES: SampleSpec[] = [
  {
    id: 'CA-2024-001',
    patientName: 'Emma Thompson',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: 'Digital Planning',
    priority: 'High',
    price: 1250,
    sheets: [18, 16],
    dueInDays: 10,
  },
  {
    id: 'CA-2024-002',
    patientName: 'James Carter',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: 'Pending Approval',
    priority: 'Normal',
    price: 1100,
    sheets: [14, 14],
    dueInDays: 14,
  },
  {
    id: 'CA-2024-003',
    patientName: 'Olivia Martinez',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: 'Doctor Approval',
    priority: 'Normal',
    price: 1400,
    sheets: [20, 18],
    dueInDays: 7,
    simulationVideoUrl: 'https://example.com/simulations/ca-2024-003.mp4',
  },
  {
    id: 'CA-2024-004',
    patientName: 'Liam Nguyen',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: 'Thermoforming',
    priority: 'High',
    price: 1300,
    sheets: [16, 15],
    dueInDays: -1,
    technician: 'tech',
  },
  {
    id: 'CA-2024-077',
    patientName: 'Sophia Brown',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: 'Completed',
    priority: 'Normal',
    price: 1500,
    sheets: [20, 20],
    dueInDays: -20,
    stagesDone: 3,
  },
];

/**
 * The sample cases of spec section 3: steps before the current status are completed, with dates
 * two days apart going back from now. Seeded as events in demo mode only.
 */
export function sampleCases(now = new Date()): Omit<Case, 'version'>[] {
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS).toISOString();
  return SAMPLES.map((sample) => {
    const current = statusIndex(sample.status);
    const done = sample.status === 'Completed' ? CASE_STATUSES.length : current;
    const stageCount = sample.status === 'Completed' ? Math.max(...sample.sheets) : 0;
    const stagesDone = sample.stagesDone ?? 0;
    const wearStart = (stage: number) => at((stagesDone - stage + 1) * DEFAULT_STAGE_WEAR_DAYS + 5);
    const createdDaysAgo = 2 * done + 1;
    return {
      id: sample.id,
      patientName: sample.patientName,
      doctorName: sample.doctor.name,
      clinicName: sample.clinicName,
      assignedDoctorUsername: sample.doctor.username,
      type: 'Clear Aligner',
      status: sample.status,
      statusEnteredAt: at(done > 0 ? 2 : createdDaysAgo),
      priority: sample.priority,
      onHold: false,
      createdDate: at(createdDaysAgo),
      deliveryDate: addDays(now.toISOString(), sample.dueInDays),
      assignedTechnicians: sample.technician ? [sample.technician] : ['Unassigned'],
      alignerWorkflow: CASE_STATUSES.map((name, index) => ({
        name,
        completed: index < done,
        date: index < done ? at(2 * (done - index)) : null,
        assignedTo: sample.technician && index === current ? sample.technician : DEFAULT_ASSIGNEE,
      })),
      files: sample.simulationVideoUrl
        ? [
            {
              name: 'Simulation Video',
              type: 'Simulation Video',
              url: sample.simulationVideoUrl,
              size: 'Link',
            },
          ]
        : [],
      notes: [
        {
          id: `note-${Date.parse(at(createdDaysAgo))}-1`,
          author: 'admin',
          role: 'Manager',
          text: CASE_TEXTS.createdNote('Manager'),
          timestamp: at(createdDaysAgo),
        },
      ],
      treatmentPlanNotes: 'Mild crowding on the lower arch; close the upper midline gap.',
      simulationVideoUrl: sample.simulationVideoUrl ?? '',
      simulationExternalLink: '',
      price: sample.price,
      upperSheets: sample.sheets[0],
      lowerSheets: sample.sheets[1],
      staging: Array.from({ length: stageCount }, (_, index) => {
        const stageNumber = index + 1;
        if (stageNumber <= stagesDone) {
          return {
            stageNumber,
            status: 'Completed' as const,
            startDate: wearStart(stageNumber),
            endDate: wearStart(stageNumber + 1),
          };
        }
        if (stageNumber === stagesDone + 1) {
          return { stageNumber, status: 'In Progress' as const, startDate: at(5), endDate: null };
        }
        return { stageNumber, status: 'Not Started' as const, startDate: null, endDate: null };
      }),
      stageWearTimeInDays: DEFAULT_STAGE_WEAR_DAYS,
      createdBy: { username: 'admin', role: 'Manager' },
      fee: null,
    };
  });
}
