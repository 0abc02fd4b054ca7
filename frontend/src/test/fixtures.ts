import type { Case, CaseStatus, User } from '@alignerflow/domain';

export const manager: User = {
  username: 'admin',
  role: 'Manager',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const representative: User = {
  username: 'rep',
  role: 'Representative',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const designer: User = {
  username: 'designer',
  role: 'Designer',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const technician: User = {
  username: 'tech',
  role: 'Technician',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const doctor: User = {
  username: 'dr.lee',
  role: 'Doctor',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const allUsers = [manager, representative, designer, technician, doctor];

export function makeCase(overrides: Partial<Case> & { id: string; status?: CaseStatus }): Case {
  return {
    patientName: 'Patient',
    doctorName: 'Dr. Lee',
    clinicName: 'Smile Clinic',
    assignedDoctorUsername: 'dr.lee',
    type: 'Clear Aligner',
    status: 'Digital Planning',
    statusEnteredAt: '2025-01-01T00:00:00.000Z',
    priority: 'Normal',
    onHold: false,
    createdDate: '2025-01-01T00:00:00.000Z',
    deliveryDate: '2099-01-15',
    assignedTechnicians: ['Unassigned'],
    alignerWorkflow: [],
    files: [],
    notes: [],
    treatmentPlanNotes: '',
    simulationVideoUrl: '',
    simulationExternalLink: '',
    price: 1200,
    upperSheets: 14,
    lowerSheets: 14,
    staging: [],
    stageWearTimeInDays: 15,
    createdBy: { username: 'admin', role: 'Manager' },
    fee: null,
    planVersions: [],
    origin: null,
    followUps: [],
    version: 1,
    ...overrides,
  };
}

export const sampleCases: Case[] = [
  makeCase({
    id: 'CA-2024-001',
    patientName: 'Alice Johnson',
    doctorName: 'Dr. Lee',
    status: 'Pending Approval',
  }),
  makeCase({
    id: 'CA-2024-002',
    patientName: 'Bob Smith',
    doctorName: 'Dr. Patel',
    status: 'Thermoforming',
    onHold: true,
  }),
  makeCase({
    id: 'CA-2024-003',
    patientName: 'Carol White',
    doctorName: 'Dr. Lee',
    status: 'Doctor Approval',
    deliveryDate: null,
  }),
  makeCase({ id: 'CA-2024-077', patientName: 'Dan Brown', doctorName: 'Dr. Patel', status: 'Completed' }),
];

export const dashboardFigures = {
  totalActive: 3,
  pendingManagerApproval: 1,
  awaitingDoctorApproval: 1,
  overdue: 0,
  completedToday: 0,
};
