import { useId, useState } from 'react';
import { formatPrice, type Case, type User } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { ActionError } from '../case-shared/ActionError';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { invalidInput } from './invalidInput';
import { TextPromptDialog } from './TextPromptDialog';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { Fact } from '../../components/Fact';

interface TreatmentPlanPanelProps {
  item: Case;
  user: User;
  commands: CaseCommandRunner;
  onOpenExternal: (url: string) => void;
}

const orNA = (value: number | null | undefined) =>
  value === null || value === undefined ? T.notAvailable : value;

/**
 * 'Treatment Plan Approval' for the assigned doctor at Doctor Approval: the simulation, a summary
 * and the decision — approve for manufacturing, or request changes with a comment.
 */
export function TreatmentPlanPanel({ item, user, commands, onOpenExternal }: TreatmentPlanPanelProps) {
  const titleId = useId();
  const [requesting, setRequesting] = useState(false);
  const [videoFailed, setVideoFailed] = useState<string | null>(null);
  const busy = commands.busy !== null;
  const link = item.simulationExternalLink;

  return (
    <section className="panel cd-plan" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.treatmentPlanApproval}</h2>
      <div className="cd-plan__grid">
        <div className="cd-plan__media">
          {item.simulationVideoUrl && videoFailed !== item.simulationVideoUrl ? (
            <video
              className="cd-plan__video"
              src={item.simulationVideoUrl}
              controls
              preload="metadata"
              aria-label={T.simulationVideo}
              onError={() => setVideoFailed(item.simulationVideoUrl)}
            />
          ) : (
            <div className="cd-plan__novideo">
              <Icon name="play" size={28} />
              {item.simulationVideoUrl ? (
                <>
                  <p className="cd-plan__video-failed">{T.videoFailed}</p>
                  <a
                    className="button button--small button--secondary cd-anchor"
                    href={item.simulationVideoUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {T.openExternal}
                  </a>
                </>
              ) : (
                <span>{T.noVideo}</span>
              )}
            </div>
          )}
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={!link}
            aria-describedby={link ? undefined : `${titleId}-nolink`}
            onClick={() => onOpenExternal(link)}
          >
            {T.viewSimulation}
          </button>
          {link ? null : (
            <p id={`${titleId}-nolink`} className="hint">
              {T.noExternalLink}
            </p>
          )}
        </div>
        <div className="cd-plan__summary">
          <dl className="facts cd-facts">
            <Fact term={T.caseId} value={item.id} valueClassName="mono" />
            <Fact term={T.patient} value={item.patientName} />
            <Fact term={T.upperSheets} value={orNA(item.upperSheets)} />
            <Fact term={T.lowerSheets} value={orNA(item.lowerSheets)} />
            <Fact term={T.finalPrice} value={formatPrice(item.price)} valueClassName="cd-price" />
          </dl>
          <div className="button-row">
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() =>
                void commands.run('approveTreatmentPlan', () => caseDetailApi.approveTreatmentPlan(item))
              }
            >
              <Icon name="check" />
              {T.approveContinue}
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => setRequesting(true)}
            >
              <Icon name="edit" />
              {T.requestChanges}
            </button>
          </div>
          <ActionError message={commands.errors.approveTreatmentPlan} />
        </div>
      </div>
      {requesting ? (
        <TextPromptDialog
          title={T.requestChangesTitle(item.id)}
          label={T.changesComment}
          hint={T.changesHint}
          submitLabel={T.requestChanges}
          validate={(comment) => invalidInput(item, user, { type: 'RequestChanges', comment })}
          onSubmit={(comment) =>
            commands.run('requestChanges', () => caseDetailApi.requestChanges(item, comment))
          }
          busy={commands.busy === 'requestChanges'}
          error={commands.errors.requestChanges}
          onClose={() => {
            setRequesting(false);
            commands.clearError('requestChanges');
          }}
        />
      ) : null}
    </section>
  );
}
