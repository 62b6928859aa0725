import { Alert, App, Avatar, Button, Card, Col, Descriptions, Row, Spin, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { getSessionUser, startSession, updateSessionUser, type SessionUser } from '../../lib/session';
import { closeSocket } from '../../providers/live';
import { ProfileEditDialog, type SavedProfile } from './edit-dialog';

export interface ProfileUser extends SessionUser {
  referral_code: string;
  account_bank: string | null;
  account_number: string | null;
  account_name: string | null;
}

const FLASH = 'profile-saved';

/** /profile for every role; ?edit=1 or ?edit=true opens the editor. */
export function Profile() {
  const { message } = App.useApp();
  const me = getSessionUser();
  const [params, setParams] = useSearchParams();
  const editing = params.get('edit') === '1' || params.get('edit') === 'true';
  const [user, setUser] = useState<ProfileUser | null>(null);
  const [level, setLevel] = useState<{ name: string | null; color: string | null }>({ name: null, color: null });
  const [error, setError] = useState<string | null>(null);
  const userId = me?.id;

  useEffect(() => {
    if (!userId) return;
    let live = true;
    api<{ user: ProfileUser; level: string | null; color: string | null }>(`/admin/users/${userId}`, { fallback: 'Error fetching user' })
      .then((res) => {
        if (!live) return;
        setUser(res.user);
        setLevel({ name: res.level, color: res.color });
      })
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching user')));
    return () => {
      live = false;
    };
  }, [userId]);

  useEffect(() => {
    if (sessionStorage.getItem(FLASH)) {
      sessionStorage.removeItem(FLASH);
      void message.success('Profil berhasil diperbarui.');
    }
  }, [message]);

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
      <PageTitle title="User Profile" extra={<Button type="primary" onClick={() => setEditing(true)}>Edit</Button>} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card data-testid="profile-card">
            <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}>
              <Avatar size={72} icon={<UserOutlined />} />
              <Typography.Title level={4} style={{ margin: 0 }}>
                {user.firstname} {user.lastname}
              </Typography.Title>
              <Typography.Text type="secondary">{user.email}</Typography.Text>
              <div>
                <Tag>{user.role}</Tag>
                {level.name && <Tag color={level.color ?? undefined}>{level.name}</Tag>}
              </div>
              <Typography.Text>
                Kode referal: <Typography.Text copyable strong>{user.referral_code}</Typography.Text>
              </Typography.Text>
            </div>
          </Card>
        </Col>
        <Col xs={24} md={16}>
          <Card title="Personal Information" data-testid="profile-info">
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="First Name">{user.firstname}</Descriptions.Item>
              <Descriptions.Item label="Last Name">{user.lastname || '-'}</Descriptions.Item>
              <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
              <Descriptions.Item label="Bank">{user.account_bank || '-'}</Descriptions.Item>
              <Descriptions.Item label="Nomor Rekening">{user.account_number || '-'}</Descriptions.Item>
              <Descriptions.Item label="Nama Rekening">{user.account_name || '-'}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
      <ProfileEditDialog user={user} open={editing} onClose={() => setEditing(false)} onSaved={saved} />
    </div>
  );
}
