import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { MessageForm } from './form';

/** /message/edit?id=: the template form preloaded. */
export function MessageEdit() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return (
    <div>
      <PageTitle title="Edit Template Pesan" />
      <MessageForm key={id ?? ''} id={id} />
    </div>
  );
}
