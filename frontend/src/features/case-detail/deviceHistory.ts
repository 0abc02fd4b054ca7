import { CARRIER_NAMES, type Carrier } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { DEVICE_TEXTS as T } from '../case-shared/texts';

type Data = Record<string, unknown>;

/** The lots and machine a stage's completion recorded, as History tab details. */
export function materialDetails(data: Data): { label: string; value: string }[] {
  const lots = Array.isArray(data.lots) ? (data.lots as unknown[]).map(String) : [];
  return [
    ...(lots.length ? [{ label: T.lotsUsed, value: lots.join(', ') }] : []),
    ...(typeof data.machine === 'string' && data.machine
      ? [{ label: T.historyMachine, value: data.machine }]
      : []),
  ];
}

/** The History tab's sentence and details of a shipment or a receipt; null for any other event. */
export function deviceHistory(
  type: string,
  who: string,
  data: Data,
): { sentence: string; details: { label: string; value: string }[] } | null {
  if (type === 'ShipmentRecorded') {
    const carrier = CARRIER_NAMES[data.carrier as Carrier] ?? String(data.carrier);
    return {
      sentence: T.historyShipped(who, carrier),
      details: [
        { label: T.trackingNumber, value: String(data.trackingNumber ?? '') },
        { label: T.historyShippedOn, value: formatDate(String(data.shippedAt ?? '')) },
      ],
    };
  }
  if (type === 'CaseReceived') return { sentence: T.historyReceived(who), details: [] };
  return null;
}
