import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** A link drawn as a button (a button inside a link is not accessible). */
function BackHome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      type="primary"
      href="/"
      onClick={(e) => {
        e.preventDefault();
        navigate('/');
      }}
    >
      {t('misc.backHome')}
    </Button>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return <Result status="404" title="404" subTitle={t('misc.notFound')} extra={<BackHome />} />;
}

export function NotAuthorized() {
  const { t } = useTranslation();
  return <Result status="403" title="403" subTitle={t('misc.notAuthorized')} extra={<BackHome />} />;
}
