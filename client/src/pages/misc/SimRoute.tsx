import { App } from 'antd';
import { SimPhone } from '../sim/SimPhone';

/** /sim is public (it stands for the phone) but uses antd's App messages like the console does. */
export function SimRoute() {
  return (
    <App>
      <SimPhone />
    </App>
  );
}
