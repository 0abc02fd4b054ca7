import { useId, useState, type FormEvent } from 'react';
import type { Case, User } from '@alignerflow/domain';
import { toast } from '../../components/toastStore';
import { ActionError } from '../case-shared/ActionError';
import { latest } from './latest';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { invalidInput } from './invalidInput';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

interface SimulationLinksPanelProps {
  item: Case;
  user: User;
  commands: CaseCommandRunner;
}

/** 'Prepare for Doctor Approval' (Designer or Manager at Digital Planning): the simulation links. */
export function SimulationLinksPanel({ item, user, commands }: SimulationLinksPanelProps) {
  const id = useId();
  const [video, setVideo] = useState(item.simulationVideoUrl);
  const [link, setLink] = useState(item.simulationExternalLink);
  const [problem, setProblem] = useState<string | undefined>();
  // The case the form started from: Save sends its version (a change made meanwhile → 409).
  const [base, setBase] = useState(item);

  async function save(event: FormEvent) {
    event.preventDefault();
    const message = invalidInput(item, user, {
      type: 'SaveSimulationLinks',
      simulationVideoUrl: video,
      simulationExternalLink: link,
    });
    setProblem(message);
    if (message) return;
    const saved = await commands.run('simulation', () =>
      caseDetailApi.simulation(base, video.trim(), link.trim()),
    );
    if (saved) toast(T.linksSaved);
    // Whatever the answer, the next Save applies to the case as it is now (after a 409 the user has seen why).
    setBase(latest(base));
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.prepareForApproval}</h2>
      <p className="muted cd-panel-hint">{T.prepareHint}</p>
      <form onSubmit={save} noValidate>
        <div className="form__grid cd-links-grid">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-video`}>
              {T.simulationVideoUrl}
            </label>
            <input
              id={`${id}-video`}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={video}
              onChange={(event) => setVideo(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-link`}>
              {T.externalSimulationLink}
            </label>
            <input
              id={`${id}-link`}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={link}
              onChange={(event) => setLink(event.target.value)}
            />
          </div>
        </div>
        <button type="submit" className="button button--primary" disabled={commands.busy === 'simulation'}>
          {T.saveLinks}
        </button>
        <ActionError message={problem ?? commands.errors.simulation} />
      </form>
    </section>
  );
}
