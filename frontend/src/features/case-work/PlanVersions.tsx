import { useId } from 'react';
import { planVersionsNewestFirst, type Case, type PlanVersion } from '@alignerflow/domain';
import { formatDateTime } from '../../components/formatDateTime';
import { CASE_WORK_UI_TEXTS as T } from '../case-shared/caseWorkTexts';

const OUTCOME_BADGE: Record<PlanVersion['outcome'], string> = {
  pending: 'badge--yellow',
  approved: 'badge--green',
  changes_requested: 'badge--orange',
};

/**
 * 'Treatment Plan Versions': every plan the doctor was sent, newest first — its links, who sent
 * it, and the doctor's decision with the change request's comment.
 */
export function PlanVersions({ item }: { item: Pick<Case, 'planVersions'> }) {
  const titleId = useId();
  const versions = planVersionsNewestFirst(item);
  if (!versions.length) return null;
  return (
    <section className="panel cw-plan-versions" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.planVersions}</h2>
      <ol className="cw-versions" reversed>
        {versions.map((version, index) => (
          <li
            key={version.version}
            className={`cw-version${index === 0 ? ' cw-version--current' : ''}`}
            aria-label={T.version(version.version)}
          >
            <div className="cw-version__head">
              <span className="cw-version__title">{T.version(version.version)}</span>
              {index === 0 ? <span className="badge badge--blue">{T.current}</span> : null}
              <span className={`badge ${OUTCOME_BADGE[version.outcome] ?? 'badge--gray'}`}>
                {T.outcome[version.outcome] ?? version.outcome}
              </span>
              {version.decidedBy && version.decidedAt ? (
                <span className="small muted">
                  {T.decided(version.decidedBy, formatDateTime(version.decidedAt))}
                </span>
              ) : null}
            </div>
            <p className="small muted">
              {T.submitted(version.submittedBy, formatDateTime(version.submittedAt))}
            </p>
            {version.simulationVideoUrl || version.simulationExternalLink ? (
              <p className="cw-version__links">
                {version.simulationVideoUrl ? (
                  <a href={version.simulationVideoUrl} target="_blank" rel="noopener noreferrer">
                    {T.simulationVideo}
                  </a>
                ) : null}
                {version.simulationExternalLink ? (
                  <a href={version.simulationExternalLink} target="_blank" rel="noopener noreferrer">
                    {T.externalViewer}
                  </a>
                ) : null}
              </p>
            ) : (
              <p className="small muted">{T.noLinks}</p>
            )}
            {version.comment ? (
              <blockquote className="cw-version__comment">{version.comment}</blockquote>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
