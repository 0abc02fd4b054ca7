import { CARRIER_NAMES } from '../materials/shipping.js';
import type { DeviceRecord } from './device-record.js';
import type { MaterialSettings } from '../materials/settings.js';

/** The custom-made device statement (EU MDR Annex XIII, section 1), item by item. */
export interface StatementItem {
  heading: string;
  lines: string[];
}

export const STATEMENT_TEXTS = {
  title: 'Statement for a custom-made device',
  subtitle: 'Regulation (EU) 2017/745 (MDR), Annex XIII, section 1',
  manufacturer: 'Manufacturer',
  device: 'Device',
  patient: 'Intended exclusively for',
  prescriber: 'Prescriber',
  characteristics: 'Characteristics of the device as prescribed',
  conformity: 'Conformity',
  substances: 'Substances and tissues',
  signature: 'Place, date and responsible person',
  notSet: '(not set in the materials settings)',
  patientLine: (code: string) =>
    `This device is intended exclusively for the use of the patient identified as ${code}.`,
  conformsFully:
    'This device conforms to the general safety and performance requirements set out in Annex I of Regulation (EU) 2017/745.',
  conformsExcept:
    'This device conforms to the general safety and performance requirements set out in Annex I of Regulation (EU) 2017/745, except as follows:',
  noSubstances:
    'The device contains no medicinal substance, no human blood or plasma derivative, and no tissues or cells of human or animal origin or their derivatives.',
} as const;

const orNotSet = (text: string) => text.trim() || STATEMENT_TEXTS.notSet;

/** Every item of the statement, in the order of Annex XIII; `place` is the manufacturer's address' last line. */
export function statementItems(
  record: DeviceRecord,
  settings: MaterialSettings,
  issuedOn: string,
): StatementItem[] {
  const { device } = record;
  const addressLines = settings.manufacturerAddress
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const place = addressLines.at(-1) ?? STATEMENT_TEXTS.notSet;
  const lots = [...new Set(record.stages.flatMap((stage) => stage.lots))];
  const shipments = record.shipments.map(
    (item) =>
      `Shipped ${item.shippedAt.slice(0, 10)} by ${CARRIER_NAMES[item.carrier]}, tracking number ${item.trackingNumber}.`,
  );
  return [
    {
      heading: STATEMENT_TEXTS.manufacturer,
      lines: [
        orNotSet(settings.manufacturerName),
        ...(addressLines.length ? addressLines : [STATEMENT_TEXTS.notSet]),
      ],
    },
    {
      heading: STATEMENT_TEXTS.device,
      lines: [
        `${device.type}, custom-made, case ${record.caseId}.`,
        ...(lots.length ? [`Material lots: ${lots.join(', ')}.`] : []),
        ...shipments,
      ],
    },
    { heading: STATEMENT_TEXTS.patient, lines: [STATEMENT_TEXTS.patientLine(record.patientCode)] },
    {
      heading: STATEMENT_TEXTS.prescriber,
      lines: [`${record.prescriber.name}, ${record.prescriber.clinic}.`],
    },
    {
      heading: STATEMENT_TEXTS.characteristics,
      lines: [
        `Sequential clear aligners in ${device.steps} steps: ${device.upperSheets ?? 0} upper and ${device.lowerSheets ?? 0} lower.`,
      ],
    },
    {
      heading: STATEMENT_TEXTS.conformity,
      lines: settings.conformityText.trim()
        ? [STATEMENT_TEXTS.conformsExcept, settings.conformityText.trim()]
        : [STATEMENT_TEXTS.conformsFully],
    },
    { heading: STATEMENT_TEXTS.substances, lines: [STATEMENT_TEXTS.noSubstances] },
    {
      heading: STATEMENT_TEXTS.signature,
      lines: [`${place}, ${issuedOn}`, orNotSet(settings.responsiblePerson)],
    },
  ];
}
