import { useDesk } from '../bridge/hooks';
import { PrintMenu } from './print-menu';

/** "Print kennel card" for one pet (the pet drawer): one page, A4 or US Letter. */
export function KennelCardButton({ petId }: { petId: string }) {
  const desk = useDesk();
  return (
    <PrintMenu
      label="Print kennel card"
      make={(paper) => desk.call('print.kennelCard', { id: petId, paper })}
    />
  );
}
