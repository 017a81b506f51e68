import { Header } from "./shared.tsx";

/** A revoked tablet: nothing left on it, and no way on without a new pairing code. */
export function Revoked() {
  return (
    <section className="panel narrow">
      <Header title="This tablet is no longer enrolled" subtitle="Its enrolment was revoked. Ask your administrator to enrol it again." />
    </section>
  );
}
