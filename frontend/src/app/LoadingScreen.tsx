import { APP_TEXTS } from './texts';

export function LoadingScreen() {
  return (
    <main className="center-screen" aria-busy="true">
      <div className="spinner" aria-hidden="true" />
      <p role="status">{APP_TEXTS.loading}</p>
    </main>
  );
}
