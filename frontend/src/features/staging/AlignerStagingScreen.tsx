import { useState } from 'react';
import {
  CASE_TEXTS,
  decidableSummary,
  decide,
  stagingMessage,
  stagingProgress,
  timeInTreatmentDays,
  totalPlannedDays,
  type StagingAction,
  type StagingEntry,
  type User,
} from '@alignerflow/domain';
import { cache, useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { ProgressRing } from './ProgressRing';
import { changeStage } from './stagingApi';
import { StageRow } from './StageRow';
import { STAGING_SCREEN_TEXTS as TEXTS } from './texts';
import { useNow } from '../../components/useNow';

interface AlignerStagingScreenProps {
  caseId: string;
  user: User;
  onBack: () => void;
  onScan: () => void;
}

/** 'Aligner Staging' for one completed case: overall progress, time in treatment, the stages (spec section 2). */
export function AlignerStagingScreen({ caseId, user, onBack, onScan }: AlignerStagingScreenProps) {
  const item = useCache((state) => state.cases.find((candidate) => candidate.id === caseId));
  const now = useNow(item?.version);
  const [busyStage, setBusyStage] = useState<number | null>(null);

  const back = (
    <button type="button" className="button button--ghost staging__back" onClick={onBack}>
      <Icon name="back" />
      {TEXTS.back}
    </button>
  );
  if (!item) {
    return (
      <div className="page">
        {back}
        <p className="empty">{TEXTS.notFound}</p>
      </div>
    );
  }

  const staging = item.staging;
  const wearDays = item.stageWearTimeInDays;
  const progress = stagingProgress(staging);
  const nextUp = staging.find((entry) => entry.status !== 'Completed')?.stageNumber;
  const actor = { username: user.username, role: user.role };
  // The shared decider tells whether this viewer may press a stage's button (assigned doctor, manager).
  const allowed = (entry: StagingEntry) => (action: StagingAction) =>
    decide(
      decidableSummary(item),
      { type: 'ChangeAlignerStage', stageNumber: entry.stageNumber, action },
      actor,
      now.toISOString(),
    ).ok;

  async function act(entry: StagingEntry, action: StagingAction): Promise<void> {
    if (!item) return;
    setBusyStage(entry.stageNumber);
    try {
      cache.upsertCase(await changeStage(item, entry.stageNumber, action));
    } catch (error) {
      toast(TEXTS.actionFailed, error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusyStage(null);
    }
  }

  return (
    <div className="page staging">
      <div className="staging__top">
        {back}
        <button type="button" className="button button--primary" onClick={onScan}>
          <Icon name="qr" />
          {TEXTS.scan}
        </button>
      </div>

      <header className="staging__header">
        <h1>{TEXTS.heading(item.patientName)}</h1>
        <p className="staging__meta">
          <span className="mono">{item.id}</span>
          <span aria-hidden="true"> · </span>
          <span>{item.doctorName}</span>
        </p>
      </header>

      {staging.length === 0 ? (
        <p className="empty">{CASE_TEXTS.noStaging}</p>
      ) : (
        <>
          <section className="staging__summary" aria-label={TEXTS.overall}>
            <div className="panel staging__overall">
              <ProgressRing percent={progress.percent} label={TEXTS.percentComplete(progress.percent)} />
              <div className="staging__overall-text">
                <h2>{TEXTS.overall}</h2>
                <p className="staging__count">
                  <strong>
                    {progress.done} / {progress.total}
                  </strong>{' '}
                  <span className="muted">{TEXTS.stagesDone(progress.done, progress.total)}</span>
                </p>
                <div
                  className="staging-bar"
                  role="progressbar"
                  aria-label={TEXTS.overall}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={progress.percent}
                >
                  <span style={{ width: `${progress.percent}%` }} />
                </div>
                <p className="staging__percent">{TEXTS.percentComplete(progress.percent)}</p>
              </div>
            </div>
            <div className="panel staging__figure">
              <Icon name="clock" size={22} />
              <div>
                <h2>{TEXTS.timeInTreatment}</h2>
                <p className="staging__figure-value">{TEXTS.days(timeInTreatmentDays(staging, now))}</p>
              </div>
            </div>
            <div className="panel staging__figure">
              <Icon name="check" size={22} />
              <div>
                <h2>{TEXTS.totalPlanned}</h2>
                <p className="staging__figure-value">{TEXTS.days(totalPlannedDays(staging, wearDays))}</p>
              </div>
            </div>
          </section>

          <p className={`staging__message${nextUp ? '' : ' staging__message--done'}`} role="status">
            {stagingMessage(staging)}
          </p>

          <section className="panel" aria-labelledby="staging-stages">
            <h2 id="staging-stages">{TEXTS.stages}</h2>
            <ol className="stage-list">
              {staging.map((entry) => (
                <StageRow
                  key={entry.stageNumber}
                  entry={entry}
                  wearDays={wearDays}
                  now={now}
                  nextUp={entry.stageNumber === nextUp}
                  allowed={allowed(entry)}
                  busy={busyStage !== null}
                  onAction={(target, action) => void act(target, action)}
                />
              ))}
            </ol>
          </section>
        </>
      )}
    </div>
  );
}
