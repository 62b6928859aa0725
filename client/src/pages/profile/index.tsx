import { useCustom, useTranslate } from '@refinedev/core';
import { Alert, App, Avatar, Button, Card, Col, Descriptions, Row, Spin, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { LevelTag } from '../../components/LevelTag';
import { PageTitle } from '../../components/PageTitle';
import { getSessionUser, startSession, updateSessionUser, type SessionUser } from '../../lib/session';
import { closeSocket } from '../../providers/live';
import { ProfileEditDialog, type SavedProfile } from './edit-dialog';
import { TwoFactorCard } from './components/TwoFactorCard';

export interface ProfileUser extends SessionUser {
  referral_code: string;
  account_bank: string | null;
  account_number: string | null;
  account_name: string | null;
}

const FLASH = 'profile-saved';

/** /profile for every role; ?edit=1 or ?edit=true opens the editor. */
export function Profile() {
  const t = useTranslate();
  const { message } = App.useApp();
  const me = getSessionUser();
  const [params, setParams] = useSearchParams();
  const editing = params.get('edit') === '1' || params.get('edit') === 'true';
  const userId = me?.id;
  // The whole answer is read (the record plus its level name and colour), so a custom call, not useOne.
  const call = useCustom<{ user: ProfileUser; level: string | null; color: string | null }>({
    url: `/admin/users/${userId ?? 0}`,
    method: 'get',
    meta: { fallback: t('profile.errors.one') },
    queryOptions: { enabled: Boolean(userId) },
    errorNotification: false,
  });
  const user = call.result.data?.user ?? null;
  const level = { name: call.result.data?.level ?? null, color: call.result.data?.color ?? null };
  const error = call.query.error ? call.query.error.message || t('profile.errors.one') : null;

  useEffect(() => {
    if (sessionStorage.getItem(FLASH)) {
      sessionStorage.removeItem(FLASH);
      void message.success(t('profile.saved'));
    }
  }, [message, t]);

  const setEditing = (open: boolean) => {
    const next = new URLSearchParams(params);
    if (open) next.set('edit', 'true');
    else next.delete('edit');
    setParams(next, { replace: true });
  };

  /**
   * A new password comes back with a fresh token (every other session has ended); it replaces the
   * stored one so this user stays signed in. The page then reloads so the top bar and the live
   * connection use the new name and token.
   */
  const saved = (res: SavedProfile) => {
    if (res.token) {
      closeSocket();
      startSession(res.token, res.user);
    } else updateSessionUser(res.user);
    sessionStorage.setItem(FLASH, '1');
    window.location.replace('/profile');
  };

  if (error) return <Alert type="error" showIcon message={error} />;
  if (!user) return <Spin />;
  return (
    <div>
      <PageTitle
        title={t('profile.title')}
        extra={
          <Button type="primary" onClick={() => setEditing(true)}>
            {t('profile.edit')}
          </Button>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card data-testid="profile-card">
            <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}>
              <Avatar size={72} icon={<UserOutlined aria-hidden />} />
              <Typography.Title level={4} style={{ margin: 0 }}>
                {user.firstname} {user.lastname}
              </Typography.Title>
              <Typography.Text type="secondary">{user.email}</Typography.Text>
              <div>
                <Tag>{user.role}</Tag>
                {level.name && <LevelTag name={level.name} color={level.color} />}
              </div>
              <Typography.Text>
                {t('profile.referralCode')} <Typography.Text copyable strong>{user.referral_code}</Typography.Text>
              </Typography.Text>
            </div>
          </Card>
        </Col>
        <Col xs={24} md={16}>
          <Card title={t('profile.info')} data-testid="profile-info">
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label={t('profile.fields.firstname')}>{user.firstname}</Descriptions.Item>
              <Descriptions.Item label={t('profile.fields.lastname')}>{user.lastname || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('profile.fields.email')}>{user.email}</Descriptions.Item>
              <Descriptions.Item label={t('profile.fields.bank')}>{user.account_bank || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('profile.fields.number')}>{user.account_number || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('profile.fields.name')}>{user.account_name || '-'}</Descriptions.Item>
            </Descriptions>
          </Card>
          <TwoFactorCard />
        </Col>
      </Row>
      <ProfileEditDialog user={user} open={editing} onClose={() => setEditing(false)} onSaved={saved} />
    </div>
  );
}
