// The Approvals page: a placeholder until pending requests and standing grants are shown here.

export function ApprovalsPage() {
  return (
    <section className="approvals-page" aria-labelledby="approvals-heading">
      <div className="page-toolbar">
        <h1 id="approvals-heading">Approvals</h1>
      </div>
    </section>
  );
}
