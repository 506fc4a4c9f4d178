import { Link } from 'react-router-dom';
import { ShieldCheck } from 'lucide-react';
import { CourtMessages } from '@lv/contracts';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { CourtDocumentList } from './CourtDocumentItem.js';
import { CourtUploadForm } from './CourtUploadForm.js';
import { courtTexts, isUnauthenticated } from './court-text.js';
import { useCourtDocuments } from './use-court.js';

/** The security notice (spec, section 2): who may see these documents. */
export function SecurityNotice() {
  return (
    <div role="note" aria-label="Security notice" className="flex items-start gap-3 rounded-2xl border border-primary/30 bg-primary/5 p-4 text-sm">
      <ShieldCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
      <p>{CourtMessages.securityNotice}</p>
    </div>
  );
}

/** Court Documents (/court-documents): the upload form, the security notice and "Your Documents (count)". */
export function CourtDocumentsPage() {
  usePageTitle('Court Documents');
  const { user } = useAuth();
  const list = useCourtDocuments(null, 'documents', user !== null);

  if (!user) {
    return (
      <div className="mx-auto max-w-4xl px-4 py-10">
        <p role="alert">{CourtMessages.notAuthenticated}</p>
      </div>
    );
  }

  const documents = list.data ?? [];

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Court Documents</h1>
          <p className="mt-2 max-w-2xl text-muted-foreground">Orders, agreements, receipts and evidence, kept private and ready for the day you need them.</p>
        </div>
        <Link to="/court-journal" className={buttonClasses({ variant: 'ghost' })}>
          Court Journal
        </Link>
      </header>

      <Card role="region" aria-labelledby="court-upload-title">
        <CardHeader>
          <CardTitle id="court-upload-title">Upload Court Document</CardTitle>
          <CardDescription>PDF, Word, JPG or PNG, up to 10MB.</CardDescription>
        </CardHeader>
        <CardContent>
          <CourtUploadForm />
        </CardContent>
      </Card>

      <SecurityNotice />

      <section aria-labelledby="court-documents-title" aria-busy={list.isPending || undefined} className="flex flex-col gap-4">
        <h2 id="court-documents-title" className="font-serif text-2xl font-semibold">
          Your Documents ({documents.length})
        </h2>
        {list.isPending ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner /> Loading your documents…
          </p>
        ) : list.isError && documents.length === 0 ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-border bg-card p-6">
            <p>{isUnauthenticated(list.error) ? CourtMessages.notAuthenticated : courtTexts('documents').loadFailed}</p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <CourtDocumentList documents={documents} variant="documents" label="Your documents" />
        )}
      </section>
    </div>
  );
}
