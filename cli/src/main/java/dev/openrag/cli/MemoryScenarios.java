package dev.openrag.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code openrag bench memory-scenarios}: what ordinary agents store and ask, checked through the MCP
 * tools: the agent-memory yardstick beside LoCoMo (which is two people chatting over dated
 * sessions). Each scenario writes a fresh scope the way an assistant would (mostly one
 * {@code add_memory} at a time, often without speaker or time) and then checks what search finds:
 * a memory among the first k, first, above another, or absent. The last line is
 * {@code memory scenarios passed=N/M}; every failed check is printed with what came back.
 * <p>
 * The same scenarios run in the test suite against a real mcp-memory on real Neo4j
 * (MemoryScenariosTest), through any {@link Tools}.
 */
public final class MemoryScenarios {

    /** Calls an MCP tool and returns its JSON answer (throws on a tool error). */
    @FunctionalInterface
    public interface Tools {
        JsonNode call(String tool, Map<String, Object> arguments);
    }

    /** How many checks passed, of how many, and a line for each that failed. */
    public record Outcome(int passed, int total, List<String> failures) {

        public String line() {
            return "memory scenarios passed=" + passed + "/" + total;
        }
    }

    /** How many plain notes surround the ones found by paraphrase. */
    static final int NOTES = 1000;

    private final Tools tools;
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private final List<String> failures = new ArrayList<>();
    private int passed;
    private int total;

    public MemoryScenarios(Tools tools) {
        this.tools = tools;
    }

    /** Runs every scenario, printing each failure and a line per scenario to {@code out}. */
    public Outcome run(PrintStream out) {
        scenario(out, "several facts about one person", this::severalFactsAboutOnePerson);
        scenario(out, "several facts about one service", this::severalFactsAboutOneService);
        scenario(out, "several facts about one project", this::severalFactsAboutOneProject);
        scenario(out, "products are no people", this::productsAreNoPeople);
        scenario(out, "a compound memory of which one part changes", this::compoundMemory);
        scenario(out, "several authors in one scope", this::severalAuthors);
        scenario(out, "updates with cue words", this::updatesWithCues);
        scenario(out, "updates without cue words", this::updatesWithoutCues);
        scenario(out, "updates by meaning in English", this::updatesInEnglish);
        scenario(out, "updates by meaning in German", this::updatesInGerman);
        scenario(out, "updates by meaning in Spanish", this::updatesInSpanish);
        scenario(out, "updates by meaning in French", this::updatesInFrench);
        scenario(out, "updates by meaning in Chinese", this::updatesInChinese);
        scenario(out, "asOf", this::asOf);
        scenario(out, "the caller's supersedes, update and forget", this::callersOwnChanges);
        scenario(out, "code identifiers, paths and flags", this::codeIdentifiers);
        scenario(out, "notes found by paraphrase among " + NOTES + " others", this::paraphraseAmongMany);
        scenario(out, "German, Spanish, French, Chinese and Japanese", this::languages);
        scenario(out, "memories without speaker or occurredAt", this::bareMemories);
        scenario(out, "pinned and expiring memories", this::pinnedAndExpiring);
        Outcome outcome = new Outcome(passed, total, List.copyOf(failures));
        out.println(outcome.line());
        return outcome;
    }

    private void scenario(PrintStream out, String name, Consumer<Scope> body) {
        int before = passed;
        int checks = total;
        int failed = failures.size();
        Scope scope = new Scope("scenario-" + run + "-" + (total + 1));
        try {
            body.accept(scope);
        } catch (RuntimeException e) {
            total++;
            failures.add(name + ": stopped: " + e.getMessage());
        }
        failures.subList(failed, failures.size()).forEach(failure -> out.println("  FAILED " + failure));
        out.printf(Locale.ROOT, "%-55s %d/%d%n", name, passed - before, total - checks);
    }

    // ---------------------------------------------------------------------------------------------------------------

    private void severalFactsAboutOnePerson(Scope s) {
        s.add("job", "Priya is a data engineer on the platform team.");
        s.add("city", "Priya lives in Manchester.");
        s.add("allergy", "Priya is allergic to peanuts.");
        s.add("birthday", "Priya's birthday is on the 14th of March.");
        s.add("tea", "Priya drinks green tea, never coffee.");
        s.first("What does Priya do for work?", "job");
        s.first("Where does Priya live?", "city");
        s.within("Does Priya have any food allergies?", "allergy", 2);
        s.within("When is Priya's birthday?", "birthday", 2);
        s.within("What should I bring Priya to drink?", "tea", 2);
    }

    private void severalFactsAboutOneService(Scope s) {
        s.add("lang", "The billing service is written in Kotlin and runs on the JVM.");
        s.add("db", "The billing service stores invoices in PostgreSQL.");
        s.add("owner", "The payments team owns the billing service; their channel is #payments-oncall.");
        s.add("deploy", "The billing service is deployed with Argo CD every weekday at 10:00.");
        s.add("search", "The search API is written in Go.");
        s.first("What language is the billing service written in?", "lang");
        s.within("Where does billing keep invoices?", "db", 2);
        s.within("Who owns the billing service?", "owner", 2);
        s.within("How is billing deployed?", "deploy", 2);
        s.first("What language is the search API written in?", "search");
    }

    private void severalFactsAboutOneProject(Scope s) {
        s.add("deadline", "Project Falcon must ship its beta by 30 June.");
        s.add("lead", "Marta leads project Falcon.");
        s.add("stack", "Project Falcon uses React Native for its mobile app.");
        s.add("budget", "Project Falcon's budget is 120k EUR for this year.");
        s.within("When is the Falcon beta due?", "deadline", 2);
        s.within("Who is in charge of Falcon?", "lead", 2);
        s.within("What framework does Falcon's mobile app use?", "stack", 2);
        s.within("How much money does project Falcon have?", "budget", 2);
    }

    private void productsAreNoPeople(Scope s) {
        s.add("proxy", "Nginx works as a reverse proxy in front of the billing service.");
        s.add("balancer", "Nginx works as a load balancer for the search API.");
        s.add("redisCache", "Redis works as the session cache for the web app.");
        s.add("redisQueue", "Redis works as a job queue for the mailer.");
        s.noSuggestion("balancer");
        s.noSuggestion("redisQueue");
        s.first("What sits in front of the billing service?", "proxy");
        s.first("What balances the load of the search API?", "balancer");
        s.within("What caches the web app's sessions?", "redisCache", 2);
    }

    private void compoundMemory(Scope s) {
        s.add("lisbon", "I live in Lisbon and I prefer tabs over spaces.", "occurredAt", "2024-01-10");
        s.add("porto", "I moved to Porto last month.", "occurredAt", "2024-06-01");
        s.add("vim", "I use Neovim with the gruvbox theme and I work mostly in Rust.", "occurredAt", "2024-01-12");
        s.add("helix", "I switched from Neovim to Helix.", "occurredAt", "2024-07-01");
        s.first("Do I prefer tabs or spaces?", "lisbon");
        s.first("Where do I live?", "porto");
        s.within("Where do I live?", "lisbon", 3);
        s.within("Which programming language do I mostly work in?", "vim", 2);
        s.above("Do I still use Neovim?", "helix", "vim");
    }

    private void severalAuthors(Scope s) {
        s.add("annCity", "I live in Leeds.", "speaker", "Ann", "occurredAt", "2024-01-10");
        s.add("jonCity", "I live in York.", "speaker", "Jon", "occurredAt", "2024-01-11");
        s.add("annPet", "I have a greyhound called Biscuit.", "speaker", "Ann", "occurredAt", "2024-01-12");
        s.add("jonPet", "I have two cats.", "speaker", "Jon", "occurredAt", "2024-01-13");
        s.add("nobody", "I live in Bath.", "occurredAt", "2024-02-01");
        s.add("jonMoved", "I moved to Hull.", "speaker", "Jon", "occurredAt", "2024-03-01");
        s.noSuggestion("nobody");
        s.suggests("jonMoved", "jonCity");
        s.first("Where does Ann live?", "annCity");
        s.first("Where does Jon live?", "jonMoved");
        s.within("What pet does Ann have?", "annPet", 2);
        s.within("Jon's pets", "jonPet", 2, "speaker", "Jon");
    }

    private void updatesWithCues(Scope s) {
        s.add("mysql", "The staging database is MySQL 8 on db-stage-1.", "occurredAt", "2024-01-10");
        s.add("bullets", "The user prefers bullet points in answers.", "occurredAt", "2024-01-11");
        s.add("standup", "The team stand-up is at 9:30 every morning.", "occurredAt", "2024-01-12");
        s.add("postgres", "Update: the staging database was migrated from MySQL to PostgreSQL 16 on db-stage-2.", "occurredAt", "2024-05-10");
        s.add("paragraphs", "The user now prefers short paragraphs instead of bullet points.", "occurredAt", "2024-05-11");
        s.add("standupMoved", "The team stand-up changed to 10:00 because of the new hires in Lisbon.", "occurredAt", "2024-05-12");
        s.suggests("postgres", "mysql");
        s.suggests("paragraphs", "bullets");
        s.first("Which database does staging use?", "postgres");
        s.within("Which database does staging use?", "mysql", 3);
        s.first("How should answers to the user be formatted?", "paragraphs");
        s.first("When is the team stand-up?", "standupMoved");
    }

    private void updatesWithoutCues(Scope s) {
        s.add("leeds", "I live in Leeds.", "speaker", "Sam", "occurredAt", "2023-02-01");
        s.add("hull", "I live in Hull.", "speaker", "Sam", "occurredAt", "2024-02-01");
        s.add("acme", "Sam works at Acme.", "occurredAt", "2023-02-02");
        s.add("globex", "Sam works at Globex.", "occurredAt", "2024-02-02");
        s.suggests("hull", "leeds");
        s.suggests("globex", "acme");
        s.first("Where does Sam live?", "hull");
        s.first("Who does Sam work for?", "globex");
    }

    /**
     * One language's updates by meaning: three facts restated months later in other words and without a cue word, two
     * distractors of the same language in between, and a person whose newer fact must not push an older, unrelated fact
     * of theirs out of k=1. The checks are the same for every language ({@link #updatesByMeaning}).
     */
    private void updatesInEnglish(Scope s) {
        updatesByMeaning(s, new Language(
                "The team's planning meeting is on Tuesday at 2 pm.", "Planning meetings happen Thursday mornings at 9.",
                "When is the planning meeting?",
                "I drive a blue Volkswagen Golf.", "I sold the Golf and bought an electric Kia.", "What car do I drive?",
                "Our backups are stored on a NAS in the office.", "Backups go to an S3 bucket in Frankfurt.",
                "Where are our backups stored?",
                "The office plants are watered on Fridays.", "When are the office plants watered?",
                "I drive to the gym on Saturdays.", "Which day do I go to the gym?",
                "Tom plays the cello in an orchestra and works as a nurse.", "Tom works as a paramedic.",
                "Which instrument does Tom play?", "What is Tom's job?"));
    }

    private void updatesInGerman(Scope s) {
        updatesByMeaning(s, new Language(
                "Das Team-Meeting ist dienstags um 14 Uhr.", "Das Team trifft sich donnerstags um 9 Uhr.",
                "Wann ist das Team-Meeting?",
                "Ich fahre einen alten Opel Astra.", "Ich habe den Opel verkauft und mir einen elektrischen Skoda gekauft.",
                "Welches Auto fahre ich?",
                "Unsere Backups liegen auf einem NAS im Büro.", "Die Sicherungen landen in einem Cloud-Speicher in Frankfurt.",
                "Wo liegen unsere Backups?",
                "Die Pflanzen im Büro werden freitags gegossen.", "Wann werden die Pflanzen im Büro gegossen?",
                "Samstags fahre ich ins Fitnessstudio.", "Wann gehe ich ins Fitnessstudio?",
                "Klara spielt Geige im Orchester und arbeitet als Lehrerin.", "Klara arbeitet als Schulleiterin.",
                "Welches Instrument spielt Klara?", "Was ist Klaras Beruf?"));
    }

    private void updatesInSpanish(Scope s) {
        updatesByMeaning(s, new Language(
                "La reunión de equipo es los martes a las dos.", "El equipo se reúne los jueves a las nueve de la mañana.",
                "¿Cuándo es la reunión de equipo?",
                "Conduzco un Seat Ibiza rojo.", "Vendí el Seat y me compré un Renault eléctrico.", "¿Qué coche conduzco?",
                "Mi peluquera es Marta, en la calle Alcalá.", "Me corta el pelo Andrés, en una barbería de Lavapiés.",
                "¿Quién me corta el pelo?",
                "Las plantas de la oficina se riegan los viernes.", "¿Cuándo se riegan las plantas de la oficina?",
                "Los sábados voy al gimnasio en coche.", "¿Qué día voy al gimnasio?",
                "Lucía toca la guitarra en un grupo y trabaja de enfermera.", "Lucía trabaja de médica en urgencias.",
                "¿Qué instrumento toca Lucía?", "¿En qué trabaja Lucía?"));
    }

    private void updatesInFrench(Scope s) {
        updatesByMeaning(s, new Language(
                "La réunion d'équipe a lieu le mardi à 14 heures.", "L'équipe se retrouve le jeudi matin à 9 heures.",
                "Quand a lieu la réunion d'équipe ?",
                "Je conduis une vieille Peugeot 206.", "J'ai vendu la Peugeot et acheté une Renault électrique.",
                "Quelle voiture est-ce que je conduis ?",
                "Mon médecin est le docteur Martin, rue de la Paix.", "Je consulte le docteur Benali au centre de santé du quartier.",
                "Qui est mon médecin ?",
                "Les plantes du bureau sont arrosées le vendredi.", "Quand arrose-t-on les plantes du bureau ?",
                "Le samedi, je vais à la piscine en voiture.", "Quel jour est-ce que je vais à la piscine ?",
                "Hugo joue du saxophone dans une fanfare et travaille comme boulanger.", "Hugo travaille comme pâtissier dans un hôtel.",
                "De quel instrument joue Hugo ?", "Quel est le métier de Hugo ?"));
    }

    private void updatesInChinese(Scope s) {
        updatesByMeaning(s, new Language(
                "团队例会在每周二下午两点。", "团队例会在每周四上午九点开。", "团队例会是什么时候？",
                "我开一辆红色的丰田卡罗拉。", "我卖掉了丰田，买了一辆比亚迪电动车。", "我开什么车？",
                "我的牙医是王医生，在人民路。", "我去李医生那里看牙，他的诊所在西湖边。", "我的牙医是谁？",
                "办公室的植物每周五浇水。", "办公室的植物什么时候浇水？",
                "我每周六开车去健身房。", "我哪天去健身房？",
                "小明在乐队里吹小号，在银行工作。", "小明在一家保险公司工作。",
                "小明演奏什么乐器？", "小明在哪里工作？"));
    }

    /** A language's sentences for {@link #updatesByMeaning}: three updates, two distractors, a person's two facts, their questions. */
    record Language(String meetingOld, String meetingNew, String meetingAsked, String carOld, String carNew, String carAsked,
                    String thirdOld, String thirdNew, String thirdAsked, String plants, String plantsAsked, String gym, String gymAsked,
                    String personOld, String personNew, String personOldAsked, String personNewAsked) {
    }

    /**
     * Each update was stored months after the fact it restates and names no cue word: the newer ranks first and the older
     * right below; asOf before the update finds the older first; distractors of the same language, stored between, keep
     * their own questions; a question about a person's older fact finds it at k=1 after a newer fact about that person.
     */
    private void updatesByMeaning(Scope s, Language l) {
        s.add("meetingOld", l.meetingOld(), "occurredAt", "2024-01-10");
        s.add("carOld", l.carOld(), "occurredAt", "2024-01-11");
        s.add("thirdOld", l.thirdOld(), "occurredAt", "2024-01-12");
        s.add("personOld", l.personOld(), "occurredAt", "2024-01-13");
        s.add("plants", l.plants(), "occurredAt", "2024-03-10");
        s.add("gym", l.gym(), "occurredAt", "2024-03-11");
        s.add("meetingNew", l.meetingNew(), "occurredAt", "2024-06-10");
        s.add("carNew", l.carNew(), "occurredAt", "2024-06-11");
        s.add("thirdNew", l.thirdNew(), "occurredAt", "2024-06-12");
        s.add("personNew", l.personNew(), "occurredAt", "2024-06-13");
        s.first(l.meetingAsked(), "meetingNew");
        s.within(l.meetingAsked(), "meetingOld", 2);
        s.first(l.carAsked(), "carNew");
        s.first(l.thirdAsked(), "thirdNew");
        s.first(l.meetingAsked(), "meetingOld", "asOf", "2024-03-01");
        s.first(l.plantsAsked(), "plants");
        s.first(l.gymAsked(), "gym");
        s.first(l.personOldAsked(), "personOld", "k", 1);
        s.first(l.personNewAsked(), "personNew");
    }

    private void asOf(Scope s) {
        s.add("v1", "The API gateway runs Kong 2.8.", "occurredAt", "2023-03-01");
        s.add("v2", "The API gateway was switched to Envoy.", "occurredAt", "2024-03-01");
        s.first("What does the API gateway run?", "v2");
        s.first("What does the API gateway run?", "v1", "asOf", "2023-06-01");
        s.absent("What does the API gateway run?", "v2", "asOf", "2023-06-01");
        s.first("What does the API gateway run?", "v2", "asOf", "2024-06-01");
    }

    private void callersOwnChanges(Scope s) {
        s.add("old", "The on-call rota is weekly.");
        s.add("new", "The on-call rota is fortnightly.", "supersedes", s.id("old"));
        s.absent("How often does the on-call rota change?", "old");
        s.first("How often does the on-call rota change?", "new");
        s.add("typo", "The VPN endpoint is vpn.exmaple.org.");
        tools.call("update_memory", Map.of("id", s.id("typo"), "text", "The VPN endpoint is vpn.example.org."));
        s.first("What is the VPN endpoint?", "typo");
        s.add("secret", "The wifi password of the office is hunter2.");
        tools.call("forget_memory", Map.of("id", s.id("secret")));
        s.absent("What is the office wifi password?", "secret");
    }

    private void codeIdentifiers(Scope s) {
        s.add("flag", "Run the importer with --dry-run --batch-size=500 before a production import.");
        s.add("path", "The nginx config lives at /etc/nginx/conf.d/billing.conf.");
        s.add("class", "OrderRepository.findByCustomerId is slow without the idx_orders_customer index.");
        s.add("env", "Set OPENRAG_MCP_MAX_TEXT_CHARS to raise the memory size limit.");
        s.add("prose", "The importer is the tool that loads customer data from CSV files.");
        s.first("--batch-size", "flag");
        s.first("/etc/nginx/conf.d/billing.conf", "path");
        s.first("findByCustomerId", "class");
        s.first("OPENRAG_MCP_MAX_TEXT_CHARS", "env");
    }

    private void paraphraseAmongMany(Scope s) {
        String[] teams = {"design", "sales", "support", "finance", "legal", "data", "mobile", "web", "infra", "research"};
        String[] things = {"the quarterly roadmap", "the hiring plan", "the office move", "the holiday calendar", "the laptop refresh",
                "the customer survey", "the onboarding guide", "the travel policy", "the security training", "the team offsite"};
        String[] verbs = {"reviewed", "postponed", "approved", "discussed", "rewrote", "shared", "questioned", "summarised", "drafted", "signed off"};
        List<Map<String, Object>> notes = new ArrayList<>();
        for (int i = 0; i < NOTES; i++) {
            notes.add(Map.of("text", "Note " + i + ": the " + teams[i % 10] + " team " + verbs[(i / 10) % 10] + " "
                    + things[(i / 100) % 10] + " in week " + (1 + i % 52) + "."));
            if (notes.size() == 200) {
                tools.call("add_memories", Map.of("scope", s.name, "memories", notes));
                notes = new ArrayList<>();
            }
        }
        s.add("dentist", "Dentist appointment with Dr. Okafor next Thursday at 3 pm.");
        s.add("anniversary", "Our wedding anniversary is on 12 September; book the Italian place.");
        s.add("passport", "My passport expires in February 2026, renew it before the Japan trip.");
        s.add("plants", "Water the fig and the monstera every Sunday.");
        s.add("mom", "Mum's flight lands at Gatwick at 7:40 on Friday.");
        s.within("When am I seeing the dentist?", "dentist", 3);
        s.within("When do we celebrate being married?", "anniversary", 3);
        s.within("Which travel document needs renewing?", "passport", 3);
        s.within("How often do the houseplants need watering?", "plants", 3);
        s.within("When does my mother arrive?", "mom", 3);
    }

    private void languages(Scope s) {
        s.add("de", "Die Heizung im Büro wird jeden Montag gewartet.");
        s.add("es", "La reunión con el proveedor de café es el miércoles.");
        s.add("fr", "Le serveur de sauvegarde se trouve dans la salle B.");
        s.add("zh", "周五下午三点开项目评审会议。");
        s.add("ja", "毎週金曜日にサーバーのバックアップを確認します。");
        s.add("en", "The coffee machine on the third floor is broken.");
        s.first("Wann wird die Heizung gewartet?", "de");
        s.first("¿Cuándo es la reunión con el proveedor de café?", "es");
        s.first("Où se trouve le serveur de sauvegarde ?", "fr");
        s.first("项目评审会议是什么时候？", "zh");
        s.first("バックアップはいつ確認しますか？", "ja");
    }

    private void bareMemories(Scope s) {
        s.add("wifi", "Guest wifi network is called Orchard-Guest.");
        s.add("parking", "Parking spot 14 is reserved for visitors.");
        s.add("printer", "The printer on floor two needs a new toner.");
        s.first("What is the guest wifi called?", "wifi");
        s.first("Which parking spot is for visitors?", "parking");
        s.first("What does the printer need?", "printer");
    }

    private void pinnedAndExpiring(Scope s) {
        s.add("pinned", "Always answer in British English.", "pinned", true);
        s.add("policy", "Login codes are valid for two minutes.");
        s.add("code", "The one-time login code is 482911.", "ttlSeconds", 4); // last, so that only a search runs in its time
        s.within("What is the login code?", "code", 2);
        s.first("Which spelling should answers use?", "pinned");
        try {
            Thread.sleep(4500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        s.absent("What is the login code?", "code");
        s.within("What is the login code?", "policy", 2);
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** One scenario's scope: its memories by key, and the checks on them. */
    final class Scope {

        final String name;
        private final Map<String, String> ids = new HashMap<>();
        private final Map<String, JsonNode> added = new HashMap<>();

        Scope(String name) {
            this.name = name;
        }

        String id(String key) {
            String id = ids.get(key);
            if (id == null) {
                throw new IllegalStateException("no memory '" + key + "' in this scenario");
            }
            return id;
        }

        /** add_memory with the text and {@code more} as name, value pairs. */
        void add(String key, String text, Object... more) {
            Map<String, Object> args = new LinkedHashMap<>(Map.of("text", text, "scope", name));
            for (int i = 0; i < more.length; i += 2) {
                args.put((String) more[i], more[i + 1]);
            }
            JsonNode memory = tools.call("add_memory", args);
            ids.put(key, memory.path("id").asText());
            added.put(key, memory);
        }

        /** The memory is among the first {@code k} results. */
        void within(String query, String key, int k, Object... more) {
            List<String> found = search(query, more);
            check(found.indexOf(id(key)) >= 0 && found.indexOf(id(key)) < k,
                    "'" + query + "' finds " + key + " among the first " + k, found);
        }

        void first(String query, String key, Object... more) {
            within(query, key, 1, more);
        }

        /** Both are found, {@code newer} first. */
        void above(String query, String newer, String older, Object... more) {
            List<String> found = search(query, more);
            int a = found.indexOf(id(newer));
            int b = found.indexOf(id(older));
            check(a >= 0 && b >= 0 && a < b, "'" + query + "' ranks " + newer + " above " + older + ", both found", found);
        }

        void absent(String query, String key, Object... more) {
            List<String> found = search(query, more);
            check(!found.contains(id(key)), "'" + query + "' leaves " + key + " out", found);
        }

        /** add_memory suggested that {@code newer} replaces {@code older}. */
        void suggests(String newer, String older) {
            List<String> suggested = suggested(newer);
            check(suggested.contains(id(older)), newer + " is suggested to replace " + older, suggested);
        }

        void noSuggestion(String key) {
            List<String> suggested = suggested(key);
            check(suggested.isEmpty(), key + " is suggested to replace nothing", suggested);
        }

        private List<String> suggested(String key) {
            List<String> to = new ArrayList<>();
            added.get(key).path("links").forEach(link -> {
                if ("suggested_supersedes".equals(link.path("type").asText())) {
                    to.add(link.path("toId").asText());
                }
            });
            return to;
        }

        private List<String> search(String query, Object... more) {
            Map<String, Object> args = new HashMap<>(Map.of("query", query, "scope", name, "k", 10));
            for (int i = 0; i < more.length; i += 2) {
                args.put((String) more[i], more[i + 1]);
            }
            List<String> found = new ArrayList<>();
            tools.call("search_memory", args).path("results").forEach(hit -> found.add(hit.path("memory").path("id").asText()));
            return found;
        }

        private void check(boolean ok, String what, List<String> got) {
            total++;
            if (ok) {
                passed++;
            } else {
                Map<String, String> keys = new HashMap<>();
                ids.forEach((key, id) -> keys.put(id, key));
                failures.add(what + "; got " + got.stream().limit(5).map(id -> keys.getOrDefault(id, "other")).toList());
            }
        }
    }
}
