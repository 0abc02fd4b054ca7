import { useMemo } from 'react';
import type { User } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { DoctorCaseCard } from './DoctorCaseCard';
import { doctorSections } from './doctorSections';
import { DOCTOR_TEXTS } from './texts';

interface DoctorDashboardProps {
  user: User;
  onOpenCase: (id: string) => void;
  onNewCase: () => void;
  onScan: () => void;
}

/** 'Doctor Portal': the doctor's own cases (the server returns only those). */
export function DoctorDashboard({ user, onOpenCase, onNewCase, onScan }: DoctorDashboardProps) {
  const cases = useCache((state) => state.cases);
  const { awaiting, others } = useMemo(() => doctorSections(cases), [cases]);

  return (
    <div className="page">
      <div className="page__title-row page__title-row--split">
        <div>
          <h1>{DOCTOR_TEXTS.title}</h1>
          <p className="welcome">{DOCTOR_TEXTS.welcome(user.username)}</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button--primary" onClick={onNewCase}>
            <Icon name="plus" />
            {DOCTOR_TEXTS.newCase}
          </button>
          <button type="button" className="button button--secondary" onClick={onScan}>
            <Icon name="qr" />
            {DOCTOR_TEXTS.scanStage}
          </button>
        </div>
      </div>

      {cases.length === 0 ? (
        <div className="empty-state">
          <Icon name="folder" size={40} />
          <h2>{DOCTOR_TEXTS.emptyTitle}</h2>
          <p className="muted">{DOCTOR_TEXTS.emptyText}</p>
        </div>
      ) : (
        <>
          {awaiting.length > 0 ? (
            <section className="panel panel--attention" aria-labelledby="awaiting-approval">
              <h2 id="awaiting-approval">{DOCTOR_TEXTS.awaitingApproval}</h2>
              <ul className="doctor-cards">
                {awaiting.map((item) => (
                  <DoctorCaseCard key={item.id} item={item} onOpen={onOpenCase} />
                ))}
              </ul>
            </section>
          ) : null}
          {others.length > 0 ? (
            <section className="panel" aria-labelledby="active-completed">
              <h2 id="active-completed">{DOCTOR_TEXTS.activeAndCompleted}</h2>
              <ul className="doctor-cards">
                {others.map((item) => (
                  <DoctorCaseCard key={item.id} item={item} onOpen={onOpenCase} />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
