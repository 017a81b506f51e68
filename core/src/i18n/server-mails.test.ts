import { describe, expect, it } from "vitest";
import { newUser } from "../accounts/model.ts";
import { removalRequestedMail } from "../accounts/removal.ts";
import { unseenMailToSupport } from "../chat/emails.ts";
import { invitationAcceptedMail } from "../onboarding/emails.ts";
import { practiceVerifiedMail } from "../practice/verify-practice.ts";
import { recaptureMail } from "../report/notices.ts";

/**
 * Issue 21: the e-mails the server writes to its own people and to families, in the recipient's
 * language. The English must read exactly as before the copy moved into the catalogue.
 */
const at = new Date("2026-03-04T12:00:00Z");
const user = (language: "en" | "es") =>
  newUser({ id: "u1", email: "ana@example.com", passwordHash: "x", type: "parent", firstName: "Ana", lastName: "Ruiz", phone: null, at, language });

describe("the server's e-mails", () => {
  it("removal confirmation: English with the day as every screen writes it (issue 46), Spanish with the date written out", () => {
    const english = removalRequestedMail(user("en"), at);
    expect(english.subject).toBe("We received your request to remove your Crown account");
    expect(english.text).toBe(
      [
        "Hello Ana,",
        "",
        "On 03/04/2026 you asked us to remove your Crown account (ana@example.com).",
        "",
        "Crown's administrators have your request and will contact you at this e-mail address about it. Until then your account stays as it is and you can still sign in.",
        "",
        "If you did not make this request, change your password at once and contact Crown support.",
        "",
        "--",
        "Crown infant head-shape screening. If you did not expect this e-mail, you can ignore it.",
      ].join("\n"),
    );
    const spanish = removalRequestedMail(user("es"), at);
    expect(spanish.subject).toBe("Recibimos su solicitud para eliminar su cuenta de Crown");
    expect(spanish.text).toContain("Hola, Ana:");
    expect(spanish.text).toContain("El 4 de marzo de 2026 usted nos pidió eliminar su cuenta de Crown (ana@example.com).");
    expect(spanish.text).toContain("Si no esperaba este correo, puede ignorarlo.");
  });

  it("practice verified", () => {
    const english = practiceVerifiedMail("doc@example.com", "Dr. Grace Hopper", "http://crown.test/");
    expect(english.subject).toBe("Your practice is verified on Crown");
    expect(english.text).toBe(
      [
        "Hello Dr. Grace Hopper,",
        "",
        "Crown has verified your practice. Families can now find you in the provider search, and you can add patients and staff.",
        "",
        "Sign in: http://crown.test/",
        "",
        "--",
        "Crown infant head-shape screening. If you did not expect this e-mail, you can ignore it.",
      ].join("\n"),
    );
    const spanish = practiceVerifiedMail("doc@example.com", "Dr. Grace Hopper", "http://crown.test/", "es");
    expect(spanish.subject).toBe("Su consultorio está verificado en Crown");
    expect(spanish.text).toContain("Iniciar sesión: http://crown.test/");
    expect(spanish.html).toContain("O copie esta dirección en su navegador:");
  });

  it("unread chat for support: the customer's name, or who they are when unnamed", () => {
    const english = unseenMailToSupport("s@example.com", "Sam", { unnamed: "visitor" }, [{ text: "Hi", images: 2 }], "http://crown.test/support");
    expect(english.subject).toBe("Unread chat from A visitor");
    expect(english.text).toBe(
      [
        "Hello Sam,",
        "",
        "A visitor wrote in the support chat and is waiting for an answer:",
        "",
        "Hi [2 images]",
        "",
        "Open the support inbox: http://crown.test/support",
        "",
        "--",
        "Crown support inbox. You receive this because you are on the support team.",
      ].join("\n"),
    );
    const spanish = unseenMailToSupport("s@example.com", "Sam", "Lucía Pérez", [{ text: "Hola", images: 1 }], "http://crown.test/support", "es");
    expect(spanish.subject).toBe("Chat sin leer de Lucía Pérez");
    expect(spanish.text).toContain("Hola [1 imagen]");
    expect(spanish.text).toContain("Bandeja de soporte de Crown.");
  });

  it("invitation accepted: the notification's words, in the physician's language", () => {
    const doctor = { email: "doc@example.com", firstName: "Grace" };
    const english = invitationAcceptedMail({ ...doctor, language: "en" }, "invitationAcceptedBaby", { name: "Ana Ruiz", baby: "Bo Ruiz" }, "http://crown.test/");
    expect(english.subject).toBe("Your Crown invitation was accepted");
    expect(english.text.split("\n").slice(0, 5)).toEqual(["Hello Grace,", "", "Ana Ruiz accepted the invitation for Bo Ruiz.", "", "Sign in: http://crown.test/"]);
    const spanish = invitationAcceptedMail({ ...doctor, language: "es" }, "invitationAcceptedStaff", { name: "Ana Ruiz", email: "ana@example.com" }, "http://crown.test/");
    expect(spanish.subject).toBe("Se aceptó su invitación de Crown");
    expect(spanish.text).toContain("Ana Ruiz (ana@example.com) aceptó su invitación y se unió a su personal.");
  });

  it("recapture: the reviewers' reasons in the parent's language", () => {
    const reasons = ["Image is blurry", "Hair artifact present"];
    expect(recaptureMail(user("en"), "Bo", reasons, null, "http://crown.test/uploads").text).toContain("What to redo: Image is blurry; Hair artifact present.");
    expect(recaptureMail(user("es"), "Bo", reasons, null, "http://crown.test/uploads").text).toContain(
      "Qué hay que repetir: La imagen está borrosa; El cabello interfiere en la imagen.",
    );
  });
});
