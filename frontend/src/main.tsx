import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme, initialTheme } from './app/useTheme';
import { listenForInstallPrompt } from './features/pwa/installPrompt';

applyTheme(initialTheme());
listenForInstallPrompt();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
