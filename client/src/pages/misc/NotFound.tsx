import { Button, Result } from 'antd';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <Result
      status="404"
      title="404"
      subTitle={'We can\u2019t seem to find the page you are looking for!'}
      extra={
        <Link to="/">
          <Button type="primary">Back to Home Page</Button>
        </Link>
      }
    />
  );
}

export function NotAuthorized() {
  return (
    <Result
      status="403"
      title="403"
      subTitle="Anda tidak memiliki akses ke halaman ini."
      extra={
        <Link to="/">
          <Button type="primary">Back to Home Page</Button>
        </Link>
      }
    />
  );
}
