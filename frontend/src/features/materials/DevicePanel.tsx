import { useId, useState } from 'react';
import {
  CARRIER_NAMES,
  completedStages,
  hasPassedQualityCheck,
  isAssignedDoctor,
  patientCode,
  STATUS_LABELS,
  type Case,
  type User,
} from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { ActionError } from '../case-shared/ActionError';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { materialsApi, statementUrl } from '../../api/materialsApi';
import { ShipDialog } from './ShipDialog';
import { MATERIALS_TEXTS as T } from './texts';

const SHIPPING_STATUSES: string[] = [STATUS_LABELS.PackagingLabeling, STATUS_LABELS.Delivery];
const SHIPPING_ROLES: string[] = ['Manager', 'Representative', 'Technician'];

/**
 * The case's device: its shipments with their tracking links (Ship for the lab, Received for
 * the doctor), the statement once Quality Check has passed, and each stage with who, when, the
 * lots and the machine (the device record).
 */
export function DevicePanel({
  item,
  user,
  commands,
}: {
  item: Case;
  user: User;
  commands: CaseCommandRunner;
}) {
  const titleId = useId();
  const [shipping, setShipping] = useState(false);
  const shipments = item.shipments ?? [];
  const canShip = SHIPPING_ROLES.includes(user.role) && SHIPPING_STATUSES.includes(item.status);
  const canReceive =
    item.status === STATUS_LABELS.Delivery &&
    !item.receivedAt &&
    (user.role === 'Manager' || isAssignedDoctor(user, item));
  const stages = completedStages(item).filter((stage) => stage.lots.length || stage.machine || stage.by);

  return (
    <section className="panel mt-device" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.device}</h2>
      <p className="mt-device__code">
        {T.patientCode}: <span className="mono">{patientCode(item)}</span>
      </p>

      <h3 className="mt-device__heading">{T.shipments}</h3>
      {shipments.length ? (
        <ul className="mt-shipments">
          {shipments.map((shipment) => (
            <li key={`${shipment.carrier}-${shipment.trackingNumber}-${shipment.shippedAt}`}>
              <strong>{CARRIER_NAMES[shipment.carrier]}</strong>{' '}
              <span className="mono">{shipment.trackingNumber}</span>
              <span className="muted"> · {T.shippedOn(formatDate(shipment.shippedAt), shipment.by)}</span>
              {shipment.trackingUrl ? (
                <a className="mt-track" href={shipment.trackingUrl} target="_blank" rel="noopener noreferrer">
                  {T.track(CARRIER_NAMES[shipment.carrier])}
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{T.noShipments}</p>
      )}
      {item.receivedAt ? (
        <p className="mt-received" role="status">
          <Icon name="check" /> {T.receivedOn(formatDate(item.receivedAt))}
        </p>
      ) : null}
      <div className="button-row">
        {canShip ? (
          <button type="button" className="button button--primary" onClick={() => setShipping(true)}>
            {T.ship}
          </button>
        ) : null}
        {canReceive ? (
          <button
            type="button"
            className="button button--primary"
            disabled={commands.busy === 'received'}
            onClick={() => void commands.run('received', () => materialsApi.received(item))}
          >
            <Icon name="check" />
            {T.received}
          </button>
        ) : null}
      </div>
      <ActionError message={commands.errors.received} />

      <h3 className="mt-device__heading">{T.statement}</h3>
      {hasPassedQualityCheck(item) ? (
        <div className="button-row">
          <a
            className="button button--secondary"
            href={statementUrl(item.id, 'a4')}
            target="_blank"
            rel="noopener"
          >
            <Icon name="download" />
            {T.statementA4}
          </a>
          <a
            className="button button--secondary"
            href={statementUrl(item.id, 'letter')}
            target="_blank"
            rel="noopener"
          >
            <Icon name="download" />
            {T.statementLetter}
          </a>
        </div>
      ) : (
        <p className="muted">{T.statementAfterQc}</p>
      )}

      {stages.length ? (
        <>
          <h3 className="mt-device__heading">{T.stages}</h3>
          <ul className="mt-stages">
            {stages.map((stage) => (
              <li key={`${stage.status}-${stage.completedAt}`}>
                <strong>{stage.status}</strong>
                <span className="muted">
                  {' '}
                  · {formatDate(stage.completedAt)}
                  {stage.by ? ` ${T.by} ${stage.by}` : ''}
                  {stage.machine ? ` · ${T.machineUsed(stage.machine)}` : ''}
                </span>
                {stage.lots.length ? (
                  <span className="mono mt-stages__lots"> {stage.lots.join(', ')}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {shipping ? (
        <ShipDialog
          busy={commands.busy === 'ship'}
          error={commands.errors.ship}
          onClose={() => {
            setShipping(false);
            commands.clearError('ship');
          }}
          onSubmit={async (input) => {
            const ok = await commands.run('ship', () => materialsApi.ship(item, input));
            if (ok) {
              setShipping(false);
              toast(T.shipmentRecorded, T.shippedToast(item.id));
            }
          }}
        />
      ) : null}
    </section>
  );
}
