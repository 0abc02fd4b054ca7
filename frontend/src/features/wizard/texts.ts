import { DOCTOR_CASE_FEE, formatPrice } from '@alignerflow/domain';

/** Texts of the New Clear Aligner Case wizard (spec sections 2, 5, 8 and 9). */
export const WIZARD_TEXTS = {
  title: 'New Clear Aligner Case',
  steps: {
    caseInfo: 'Case Info',
    patient: 'Patient Details',
    stl: 'STL Files',
    photos: 'Photos',
    payment: 'Payment',
    review: 'Review',
  },
  stepOf: (step: number, total: number) => `Step ${step} of ${total}`,
  back: 'Back',
  next: 'Next',
  cancel: 'Cancel',
  submit: 'Submit Case',
  submitting: 'Submitting...',
  waitingForUploads: 'Finishing uploads...',

  patientName: 'Patient Name',
  doctorName: 'Doctor Name',
  clinicName: 'Clinic Name',
  priority: 'Priority',
  normal: 'Normal',
  high: 'High',
  dueDate: 'Due Date',
  treatmentPlanNotes: 'Treatment Plan Notes',
  price: 'Case Price ($)',
  upperSheets: 'Upper Sheets',
  lowerSheets: 'Lower Sheets',
  optional: 'Optional',
  required: 'required',

  stlHint: 'Upload the scans of both arches as .stl files (optional).',
  upper: 'Upper',
  lower: 'Lower',
  photosHint: 'Add up to four intra-oral or facial photos (optional).',
  photo: (n: number) => `Photo ${n}`,
  chooseFile: 'Choose file',
  replace: 'Replace',
  remove: 'Remove',
  removeFile: (slot: string) => `Remove ${slot} file`,
  uploading: (percent: number) => `Uploading… ${percent}%`,
  uploaded: 'Uploaded',
  uploadProgress: (slot: string) => `${slot} upload progress`,
  noFile: 'No file chosen',

  fee: 'Case Fee',
  feeAmount: formatPrice(DOCTOR_CASE_FEE),
  feeHint: 'Doctors pay the case fee when they submit a case. Payment is made with your mobile wallet.',
  pay: `Pay ${formatPrice(DOCTOR_CASE_FEE)}`,
  paying: 'Processing payment...',
  paid: 'Payment complete',
  paymentProgress: 'Payment progress',

  reviewHint: 'Check the case before you submit it.',
  files: 'Files',
  noFiles: 'No files',
  paymentRow: 'Payment',
  notProvided: 'N/A',

  // Spec section 8, "Upload failure".
  uploadFailedStatus: (status: number) => `Upload failed with status ${status}`,
  uploadNetworkError: 'Network error during upload',
  uploadFailed: 'Upload failed',
} as const;

export const PAYMENT_MS = 2500;
