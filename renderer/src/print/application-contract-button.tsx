import { useDesk } from '../bridge/hooks';
import { PrintMenu } from './print-menu';

/**
 * "Print adoption agreement" (or foster agreement) for an application: the applicant's name and contact, the pets
 * applied for with their fees, the date and signature lines; A4 or US Letter.
 */
export function ApplicationContractButton({ applicationId, kind }: { applicationId: string; kind: string }) {
  const desk = useDesk();
  return (
    <PrintMenu
      label={kind === 'foster' ? 'Print foster agreement' : 'Print adoption agreement'}
      variant="default"
      make={(paper) => desk.call('print.contract', { applicationId, paper })}
    />
  );
}
