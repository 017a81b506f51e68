import { Accounts } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/** Issue 21: `/api/v1/es/...` answers every error class in Spanish; `/api/v1/en/...` is untouched. */
describe.each(await databaseKinds())("answers in Spanish on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const es = (method: string, url: string, options: { body?: unknown; token?: string | null; ip?: string } = {}) =>
    server.call(method, url, { ...options, language: "es" });

  test("422: the message and every field error in Spanish; English the same bytes as before", async () => {
    const body = { email: "not-an-email", password: b64("short"), phone: "12", type: "alien" };
    const spanish = await es("POST", "/user/sign-up", { body });
    expect(spanish.status).toBe(422);
    expect(spanish.json.errors).toEqual({
      first_name: ["El campo Nombre es obligatorio"],
      last_name: ["El campo Apellido es obligatorio"],
      email: ["El correo electrónico no es válido"],
      password: [
        "La contraseña debe tener al menos 8 caracteres, con al menos una mayúscula, una minúscula, un número y un carácter especial (!@#$%^&*-_)",
      ],
      phone: ["El número de celular no es válido"],
      // Intl.ListFormat writes the Spanish list: "u" before a word starting with "o".
      type: ["El campo Tipo debe ser uno de estos valores: parent, physician u other"],
    });
    expect(spanish.json.message).toBe("El campo Nombre es obligatorio");

    const english = await server.post("/user/sign-up", body);
    expect(english.status).toBe(422);
    expect(english.json.message).toBe("First name is required");
    expect(english.json.errors.email).toEqual(["Email is invalid"]);
    // The English answer is exactly what the use case said: no re-encoding on the way out.
    const raw = await server.app.request("/api/v1/en/user/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.1.2.3" },
      body: JSON.stringify(body),
    });
    expect(await raw.text()).toBe(JSON.stringify({ message: english.json.message, errors: english.json.errors }));
  });

  test("a success message in Spanish; the data in results untouched", async () => {
    const email = uniqueEmail("es");
    const signUp = await es("POST", "/user/sign-up", {
      body: { first_name: "Lucía", last_name: "Pérez", email, password: b64(PASSWORD), phone: "5551234567", type: "parent", register_type: "normal" },
    });
    expect(signUp.status).toBe(201);
    expect(signUp.json.message).toBe("Gracias por registrarse. Revise su bandeja de entrada y verifique su correo electrónico");
    expect(signUp.json.results).toMatchObject({ email, type: "parent", status: "EmailVerificationRequired" });

    // 403 with its status kept for the client.
    const before = await es("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD) } });
    expect(before.status).toBe(403);
    expect(before.json).toEqual({ message: "Verifique su correo electrónico antes de iniciar sesión.", status: "EmailVerificationRequired" });
  });

  /**
   * One call in Spanish and the same in English: the same status and the spec's error shape (the
   * same keys, a string `message`), the Spanish message as expected, the English one as it always read.
   */
  const inBoth = async (
    method: string,
    url: string,
    options: { body?: unknown; token?: string | null; ip?: [string, string] },
    expected: { status: number; es: string | RegExp; en: string | RegExp },
  ) => {
    const spanish = await server.call(method, url, { ...options, ip: options.ip?.[0], language: "es" });
    const english = await server.call(method, url, { ...options, ip: options.ip?.[1], language: "en" });
    for (const answer of [spanish, english]) {
      expect(answer.status).toBe(expected.status);
      expect(answer.response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(typeof answer.json.message).toBe("string");
      expect(answer.json).not.toHaveProperty("results");
    }
    expect(Object.keys(spanish.json).sort()).toEqual(Object.keys(english.json).sort());
    expect(spanish.json.message).toMatch(expected.es);
    expect(english.json.message).toMatch(expected.en);
    return { spanish, english };
  };
  const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

  test("401 without a session", async () => {
    const { spanish, english } = await inBoth("GET", "/user/profile", {}, {
      status: 401,
      es: exactly("No tiene autorización para realizar esta acción"),
      en: exactly("You are not authorised to perform this action"),
    });
    expect(spanish.json).toEqual({ message: "No tiene autorización para realizar esta acción" });
    expect(english.json).toEqual({ message: "You are not authorised to perform this action" });
  });

  test("403: a known caller who may not do this", async () => {
    const parent = await signUpVerified(server, "parent");
    await inBoth("GET", "/admin/removal-requests", { token: parent.token }, {
      status: 403,
      es: exactly("No tiene permiso para realizar esta acción."),
      en: exactly("You are not allowed to perform this action."),
    });
  });

  test("404: a thing not found names it in Spanish; an unknown call too", async () => {
    const parent = await signUpVerified(server, "parent");
    await inBoth("GET", "/user/profile-photo", { token: parent.token }, { status: 404, es: exactly("No se encontró la foto de perfil"), en: exactly("Profile photo not found") });
    const { spanish, english } = await inBoth("GET", "/no/such/call", {}, { status: 404, es: exactly("No se encontró"), en: exactly("Not found") });
    expect(spanish.json).toEqual({ message: "No se encontró" });
    expect(english.json).toEqual({ message: "Not found" });
  });

  test("409: a refusal from the account's state", async () => {
    const email = uniqueEmail("admin");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    const boss = await es("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD) } });
    expect(boss.json.message).toBe("Sesión iniciada correctamente");
    const parent = await signUpVerified(server, "parent");
    await inBoth("POST", "/admin/users/approve", { body: { identifier: parent.identifier }, token: boss.json.results.token }, {
      status: 409,
      es: /^Esta cuenta no está pendiente de aprobación \(estado \w+\)\.$/,
      en: /^This account is not waiting for approval \(status \w+\)\.$/,
    });
  });

  test("413 and 415 from the body policy, in each language", async () => {
    const big = (language: string, ip: string) =>
      server.app.request(`/api/v1/${language}/user/password/recover`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(5 * 1024 * 1024), "x-forwarded-for": ip },
        body: "x".repeat(5 * 1024 * 1024),
      });
    const [bigEs, bigEn] = [await big("es", "10.9.0.1"), await big("en", "10.9.0.3")];
    expect([bigEs.status, bigEn.status]).toEqual([413, 413]);
    expect(await bigEs.json()).toEqual({ message: "El cuerpo de la solicitud es demasiado grande." });
    expect(await bigEn.json()).toEqual({ message: "The request body is too large." });
    const xml = (language: string, ip: string) =>
      server.app.request(`/api/v1/${language}/user/sign-in`, { method: "POST", headers: { "content-type": "text/xml", "x-forwarded-for": ip }, body: "<x/>" });
    const [xmlEs, xmlEn] = [await xml("es", "10.9.0.2"), await xml("en", "10.9.0.4")];
    expect([xmlEs.status, xmlEn.status]).toEqual([415, 415]);
    expect(await xmlEs.json()).toEqual({ message: "Esta llamada acepta un cuerpo JSON (application/json)." });
    expect(await xmlEn.json()).toEqual({ message: "This call takes a JSON body (application/json)." });
  });

  test("422 for a body that is not a JSON object, in each language", async () => {
    const { spanish, english } = await inBoth("POST", "/user/sign-in", { body: [1, 2] }, {
      status: 422,
      es: exactly("El cuerpo de la solicitud debe ser un objeto JSON."),
      en: exactly("The request body must be a JSON object."),
    });
    expect(spanish.json.errors).toEqual({ body: ["El cuerpo de la solicitud debe ser un objeto JSON."] });
    expect(english.json.errors).toEqual({ body: ["The request body must be a JSON object."] });
  });

  test("429 with Retry-After, in each language", async () => {
    const parent = await signUpVerified(server, "parent");
    const hammer = async (language: string, ip: string) => {
      let last = await server.call("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip, language });
      for (let i = 0; i < 6 && last.status !== 429; i++) last = await server.call("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip, language });
      return last;
    };
    const first = await es("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip: "203.0.113.77" });
    expect(first.json.message).toBe("Estos datos de acceso no coinciden con nuestros registros.");
    const spanish = await hammer("es", "203.0.113.77");
    expect(spanish.status).toBe(429);
    expect(spanish.json).toEqual({ message: "Demasiados intentos. Vuelva a intentarlo más tarde." });
    expect(Number(spanish.response.headers.get("retry-after"))).toBeGreaterThan(0);
    const english = await hammer("en", "203.0.113.78");
    expect(english.status).toBe(429);
    expect(english.json).toEqual({ message: "Too many attempts. Please try again later." });
    expect(Number(english.response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe.each(await databaseKinds())("the user's language on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });
  const mailsTo = async (email: string) => (await server.outbox()).filter((m) => m.to.includes(email));

  test("a sign-up through /api/v1/es is a Spanish account: its e-mails are Spanish until the user chooses English", async () => {
    const email = uniqueEmail("lucia");
    const signUp = await server.call("POST", "/user/sign-up", {
      language: "es",
      body: { first_name: "Lucía", last_name: "Pérez", email, password: b64(PASSWORD), phone: "5551234567", type: "parent", register_type: "normal" },
    });
    expect(signUp.status).toBe(201);
    const [verification] = await mailsTo(email);
    expect(verification!.subject).toBe("Verifique su correo electrónico para Crown");
    expect(verification!.text).toContain("Hola, Lucía:");
    expect(verification!.text).toContain("caduca en");
    expect(verification!.html).toContain("O copie esta dirección en su navegador:");
    const link = new URL(server.findLink(verification!.text, "/verify-email")!);
    const q = link.searchParams;
    expect((await server.get(`/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=${q.get("signature")}`)).status).toBe(200);
    const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD) });
    const token = signIn.json.results.token as string;
    expect((await server.get("/user/profile", token)).json.results.language).toBe("es");

    await server.post("/user/password/recover", { email });
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Restablezca su contraseña de Crown");

    const bad = await server.call("POST", "/user/language", { body: { language: "fr" }, token, language: "es" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.language).toEqual(["El campo Idioma debe ser uno de estos valores: en o es"]);
    const english = await server.post("/user/language", { language: "en" }, token);
    expect(english.json).toEqual({ message: "Language changed successfully", results: { language: "en" } });
    expect((await server.get("/user/profile", token)).json.results.language).toBe("en");
    await server.post("/user/password/recover", { email });
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Reset your Crown password");
  });

  test("the bell and the reminders in the language of the call", async () => {
    const adminEmail = uniqueEmail("admin");
    await server.services.run(Accounts.createVerifiedUser({ email: adminEmail, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    const admin = (await server.post("/user/sign-in", { email: adminEmail, password: b64(PASSWORD) })).json.results.token as string;
    const other = await signUpVerified(server, "other");
    expect((await server.post("/admin/users/approve", { identifier: other.identifier }, admin)).status).toBe(200);
    const token = (await server.post("/user/sign-in", { email: other.email, password: b64(PASSWORD) })).json.results.token as string;

    // Stored once, read in the reader's current language: the same notification in both.
    const spanish = await server.call("GET", "/user/notifications", { token, language: "es" });
    const english = await server.call("GET", "/user/notifications", { token, language: "en" });
    expect(spanish.json.results.data.map((n: { text: string }) => n.text)).toEqual(["Su cuenta fue aprobada. ¡Le damos la bienvenida a Crown!"]);
    expect(english.json.results.data.map((n: { text: string }) => n.text)).toEqual(["Your account has been approved. Welcome to Crown!"]);
    expect(spanish.json.results.data[0].identifier).toBe(english.json.results.data[0].identifier);

    const parent = await signUpVerified(server, "parent");
    const reminders = async (language: string) =>
      ((await server.call("GET", "/user/reminders", { token: parent.token, language })).json.results as Array<{ type: string; text: string }>).find((r) => r.type === "disclaimer")?.text;
    expect(await reminders("es")).toBe("Lea y acepte el Aviso legal.");
    expect(await reminders("en")).toBe("Please read and accept the Disclaimer.");

  });

  test("a sign-up through /api/v1/en stays English", async () => {
    const { email, token } = await signUpVerified(server, "parent");
    expect((await mailsTo(email))[0]!.subject).toBe("Verify your e-mail address for Crown");
    expect((await server.get("/user/profile", token)).json.results.language).toBe("en");
  });
});
