import { Icon } from '../components/Icon';
import { APP_TEXTS } from './texts';

export function SplashScreen() {
  return (
    <main className="splash" aria-label={APP_TEXTS.productName}>
      <div className="splash__mark" aria-hidden="true">
        <Icon name="tooth" size={56} />
      </div>
      <h1 className="splash__title">{APP_TEXTS.productName}</h1>
      <p className="splash__subtitle">{APP_TEXTS.splashSubtitle}</p>
    </main>
  );
}
