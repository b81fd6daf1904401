# syntax=docker/dockerfile:1
#
# onebeat scheduler image.
#   docker build -t onebeat .
#   docker run -p 8080:8080 -e SPRING_DATASOURCE_URL=jdbc:postgresql://db:5432/onebeat ... onebeat
# The image runs the lean jar, without the embedded PostgreSQL binaries (about 175 MB less): it needs
# SPRING_DATASOURCE_URL, and says so at start-up when it is unset.

# ---- build: the whole reactor, tests are run by CI, not here ----
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# the cache mount keeps ~/.m2 between builds (BuildKit); the image's own Maven is used,
# so the build needs no wrapper download
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -DskipTests package

# ---- runtime: JRE and the lean Spring Boot jar only ----
FROM eclipse-temurin:17-jre
# a non-root user: nothing here needs root
RUN groupadd --system onebeat \
 && useradd --system --gid onebeat --home-dir /app --no-create-home onebeat
WORKDIR /app
COPY --from=build /src/scheduler-app/target/scheduler-app-lean.jar /app/scheduler-app.jar
# job jars go in /app/jobs
RUN chown onebeat:onebeat /app
USER onebeat
EXPOSE 8080
ENTRYPOINT ["java","-jar","/app/scheduler-app.jar"]
