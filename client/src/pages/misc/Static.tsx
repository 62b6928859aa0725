import { useTranslation } from 'react-i18next';
import { Card, Typography } from 'antd';
import { Link } from 'react-router';

function Shell({ area, children }: { area: 'reset' | 'terms' | 'privacy'; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="public-page" style={{ maxWidth: 720, margin: '48px auto', padding: 16 }}>
      <Card>
        <Typography.Title level={1} style={{ fontSize: 24 }}>
          {t(`misc.${area}.title`)}
        </Typography.Title>
        <Typography.Paragraph>{t(`misc.${area}.body`)}</Typography.Paragraph>
        {children}
      </Card>
    </main>
  );
}

/** Passwords are reset by an admin; the page says how to reach one. */
export function ResetPassword() {
  const { t } = useTranslation();
  return (
    <Shell area="reset">
      <Link to="/signin">{t('misc.reset.back')}</Link>
    </Shell>
  );
}

export function Terms() {
  return <Shell area="terms" />;
}

export function PrivacyPolicy() {
  return <Shell area="privacy" />;
}
